import { createMapCache } from '../core/stack/createMapCache';
import { parseStack } from '../core/stack/parseStack';
import { symbolicate, type MapLookup, type SymbolicatedFrame } from '../core/stack/symbolicate';
import type { SourceMapStore } from '../store/contract';

/**
 * The parsed maps one store's reads keep: at most this many characters of map text (a parsed
 * map takes a few times its text in memory: docs/source-maps.md, "Limits").
 */
export const MAP_CACHE_CHARS = 64 * 1024 * 1024;
/** Map texts looked up in the store for one page of events, at most: the work of a read is bounded whatever the stacks name. */
export const MAX_MAP_LOOKUPS = 64;

/** ONE cache per store, whatever the number of collectors in the process (each has its own store). */
const caches = new WeakMap<SourceMapStore, ReturnType<typeof createMapCache>>();
const cacheOf = (maps: SourceMapStore) => {
  let cache = caches.get(maps);
  if (!cache) caches.set(maps, (cache = createMapCache({ maxChars: MAP_CACHE_CHARS })));
  return cache;
};

/**
 * The URLs a script's map may be stored under, first found first: the URL as the stack names it,
 * then `~/` and its path (with its query, then without), for a map uploaded for any origin of
 * the site (docs/source-maps.md, "How a map is found"). Only http(s) scripts have a `~/` form.
 */
export const mapUrlsOf = (file: string): string[] => {
  if (!/^https?:\/\//i.test(file)) return [file];
  let url: URL;
  try {
    url = new URL(file);
  } catch {
    return [file];
  }
  const path = `~${url.pathname}`;
  return [...new Set([file, url.search ? `${path}${url.search}` : path, path])];
};

const keyOf = (siteKey: string, release: string, url: string) => `${siteKey}\n${release}\n${url}`;

/**
 * Each report's frames, mapped by its release's maps (core/stack/symbolicate.ts): the stacks are
 * parsed, the map texts not yet parsed are read from the store (at most MAX_MAP_LOOKUPS a call, by
 * release and URL), then every frame is mapped from the store's one cache of parsed maps.
 *
 * @example
 * const frames = await eventFrames(store.sourceMaps, 'k', [{ release: '1.2', stack: 'TypeError: …\n    at t (https://shop.example/app.min.js:1:74)' }]);
 */
export const eventFrames = async (
  maps: SourceMapStore,
  siteKey: string,
  reports: ReadonlyArray<{ release?: string | null | undefined; stack?: string | null | undefined }>,
): Promise<SymbolicatedFrame[][]> => {
  const cache = cacheOf(maps);
  const stacks = reports.map((report) => parseStack(report.stack ?? ''));
  const texts = new Map<string, string | undefined>();
  const wanted: Array<[string, string]> = [];
  reports.forEach(({ release }, index) => {
    if (!release) return;
    for (const frame of stacks[index]!) {
      for (const url of frame.file ? mapUrlsOf(frame.file) : []) {
        const key = keyOf(siteKey, release, url);
        if (texts.has(key) || cache.has(key) || wanted.length >= MAX_MAP_LOOKUPS) continue;
        texts.set(key, undefined);
        wanted.push([release, url]);
      }
    }
  });
  await Promise.all(wanted.map(async ([release, url]) => texts.set(keyOf(siteKey, release, url), await maps.text(siteKey, release, url))));
  return reports.map(({ release }, index) => {
    const lookup: MapLookup = (file) => {
      if (!release) return 'no_release';
      for (const url of mapUrlsOf(file)) {
        const key = keyOf(siteKey, release, url);
        const map = cache.get(key, () => texts.get(key));
        if (map != 'no_map') return map;
      }
      return 'no_map';
    };
    return symbolicate(stacks[index]!, lookup);
  });
};
