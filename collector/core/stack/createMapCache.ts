import { parseSourceMap, type ParsedSourceMap } from './parseSourceMap';

/** What the cache answers for a key: the parsed map, or why there is none. */
export type CachedMap = ParsedSourceMap | 'no_map' | 'map_invalid';

/** A map as the cache keeps it: its weight, and what lets go of it once it is dropped (a file's, sourcemaps/mapFiles.ts). */
export interface MapEntry {
  map: ParsedSourceMap | 'map_invalid';
  weight: number;
  dispose?: () => void;
  /** Where the compact form is, when it is a file. */
  path?: string;
}

/** A map compiled in memory (parseSourceMap.ts), weighing its compact form's bytes, or its text's length with `maxChars`. */
const inMemory =
  (byChars: boolean) =>
  (text: string): MapEntry => {
    const map = parseSourceMap(text);
    return { map, weight: byChars || map == 'map_invalid' ? text.length : map.bytes };
  };

/**
 * A least-recently-used cache of parsed source maps, bounded by the total weight of its entries:
 * the length of their texts (`maxChars`), or, with `maxBytes`, the bytes their compact forms take
 * (compactMap.ts), in memory or, with a `compile` of its own, on disk. Each map is compiled once
 * per entry: `get(key, load)` calls `load` and compiles only on a miss; `load` answers the map's
 * text, or `undefined` when there is no map (`'no_map'`, not cached: a map uploaded later is
 * found). An invalid map is cached as invalid, weighing its text's length. A map heavier than the
 * whole bound is answered but not kept (let go of once the caller's turn of the event loop ends).
 *
 * @example
 * const maps = createMapCache({ maxBytes: 64 * 1024 * 1024 });
 * const map = maps.get(`${release} ${url}`, () => store.mapText(release, url));
 */
export const createMapCache = (bound: { maxChars: number } | { maxBytes: number }, compile: (text: string) => MapEntry = inMemory(!('maxBytes' in bound))) => {
  const max = 'maxBytes' in bound ? bound.maxBytes : bound.maxChars;
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recently used.
  const entries = new Map<string, MapEntry>();
  let total = 0;
  const drop = (key: string, entry: MapEntry) => {
    entries.delete(key);
    total -= entry.weight;
    entry.dispose?.();
  };
  const forget = (key: string) => {
    const entry = entries.get(key);
    if (entry) drop(key, entry);
  };
  const keep = (key: string, entry: MapEntry) => {
    forget(key);
    if (entry.weight > max) {
      if (entry.dispose) setTimeout(entry.dispose, 0);
      return entry.map;
    }
    entries.set(key, entry);
    total += entry.weight;
    for (const [oldest, old] of entries) {
      if (total <= max) break;
      drop(oldest, old);
    }
    return entry.map;
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
      return keep(key, compile(text));
    },
    /** Compiles an upload's map and keeps it under `key`, replacing what was there; an invalid one is answered, not kept. */
    put(key: string, text: string): ParsedSourceMap | 'map_invalid' {
      const entry = compile(text);
      if (entry.map != 'map_invalid') return keep(key, entry);
      entry.dispose?.();
      return 'map_invalid';
    },
    /** Drops `key` (its map was replaced or deleted). */
    forget,
    /** Whether `key` is kept (a caller loading texts ahead skips it), without making it recently used. */
    has: (key: string) => entries.has(key),
    /** The entry kept under `key`, without making it recently used. */
    peek: (key: string) => entries.get(key),
    /** The number of maps kept and their total weight (`chars`: text length, or bytes with `maxBytes`). */
    size: () => ({ maps: entries.size, chars: total }),
  };
};
