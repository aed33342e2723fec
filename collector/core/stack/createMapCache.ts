import { parseSourceMap, type ParsedSourceMap } from './parseSourceMap';

/** What the cache answers for a key: the parsed map, or why there is none. */
export type CachedMap = ParsedSourceMap | 'no_map' | 'map_invalid';

/**
 * A least-recently-used cache of parsed source maps, bounded by the total length of their texts
 * (a parsed map takes a few times its text's size: the bound is the lever on memory). Each map is
 * parsed once per entry: `get(key, load)` calls `load` and parses only on a miss; `load` answers
 * the map's text, or `undefined` when there is no map (`'no_map'`, not cached: a map uploaded later
 * is found). An invalid map is cached as invalid, counted by its text's length. A map larger than
 * the whole bound is parsed and answered but not kept.
 *
 * @example
 * const maps = createMapCache({ maxChars: 64 * 1024 * 1024 });
 * const map = maps.get(`${release} ${url}`, () => store.mapText(release, url));
 */
export const createMapCache = ({ maxChars }: { maxChars: number }) => {
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recently used.
  const entries = new Map<string, { map: ParsedSourceMap | 'map_invalid'; chars: number }>();
  let total = 0;
  return {
    get(key: string, load: () => string | undefined): CachedMap {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
        return hit.map;
      }
      const text = load();
      if (text === undefined) return 'no_map';
      const map = parseSourceMap(text);
      if (text.length > maxChars) return map;
      entries.set(key, { map, chars: text.length });
      total += text.length;
      for (const [oldest, entry] of entries) {
        if (total <= maxChars) break;
        entries.delete(oldest);
        total -= entry.chars;
      }
      return map;
    },
    /** Whether `key` is kept (a caller loading texts ahead skips it), without making it recently used. */
    has: (key: string) => entries.has(key),
    /** The number of maps kept and the total length of their texts. */
    size: () => ({ maps: entries.size, chars: total }),
  };
};
