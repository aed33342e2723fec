import { decodedMappings } from '@jridgewell/trace-mapping';
import { parseSourceMap, type ParsedSourceMap } from './parseSourceMap';

/** What the cache answers for a key: the parsed map, or why there is none. */
export type CachedMap = ParsedSourceMap | 'no_map' | 'map_invalid';

/**
 * The heap a parsed map takes, estimated: its text (the sources' contents are kept), about 96 bytes
 * per decoded mapping and 40 per generated line (measured: parseSourceMap.ts, MAX_MAP_SEGMENTS).
 *
 * @example
 * mapBytes(text, parseSourceMap(text)); // 34_000_000 for a 5 MB bundle's map of 300 k mappings
 */
export const mapBytes = (text: string, map: ParsedSourceMap | 'map_invalid') => {
  if (map == 'map_invalid') return text.length;
  let segments = 0;
  const lines = decodedMappings(map);
  for (const line of lines) segments += line.length;
  return text.length + segments * 96 + lines.length * 40;
};

/**
 * A least-recently-used cache of parsed source maps, bounded by the total weight of its entries:
 * the length of their texts (`maxChars`), or, with `maxBytes`, the heap they are estimated to take
 * (mapBytes), the lever on memory. Each map is parsed once per entry: `get(key, load)` calls `load`
 * and parses only on a miss; `load` answers the map's text, or `undefined` when there is no map
 * (`'no_map'`, not cached: a map uploaded later is found). An invalid map is cached as invalid,
 * weighing its text's length. A map heavier than the whole bound is parsed and answered but not kept.
 *
 * @example
 * const maps = createMapCache({ maxBytes: 64 * 1024 * 1024 });
 * const map = maps.get(`${release} ${url}`, () => store.mapText(release, url));
 */
export const createMapCache = (bound: { maxChars: number } | { maxBytes: number }) => {
  const max = 'maxBytes' in bound ? bound.maxBytes : bound.maxChars;
  const weightOf = 'maxBytes' in bound ? mapBytes : (text: string) => text.length;
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recently used.
  const entries = new Map<string, { map: ParsedSourceMap | 'map_invalid'; chars: number }>();
  let total = 0;
  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    total -= entry.chars;
  };
  const keep = (key: string, text: string, map: ParsedSourceMap | 'map_invalid') => {
    forget(key);
    const weight = weightOf(text, map);
    if (weight > max) return;
    entries.set(key, { map, chars: weight });
    total += weight;
    for (const [oldest, entry] of entries) {
      if (total <= max) break;
      entries.delete(oldest);
      total -= entry.chars;
    }
  };
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
      keep(key, text, map);
      return map;
    },
    /** Keeps a map parsed elsewhere (an upload's, checked before it is stored) under `key`, replacing what was there. */
    set: (key: string, text: string, map: ParsedSourceMap) => keep(key, text, map),
    /** Drops `key` (its map was replaced or deleted). */
    forget,
    /** Whether `key` is kept (a caller loading texts ahead skips it), without making it recently used. */
    has: (key: string) => entries.has(key),
    /** The number of maps kept and their total weight (`chars`: text length, or estimated bytes with `maxBytes`). */
    size: () => ({ maps: entries.size, chars: total }),
  };
};
