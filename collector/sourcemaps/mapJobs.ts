import { createMapCache } from '../core/stack/createMapCache';
import { mapKeyOf, mapUrlsOf } from '../core/stack/mapUrls';
import { parseSourceMap } from '../core/stack/parseSourceMap';
import { parseStack } from '../core/stack/parseStack';
import { buildPositionIndex, type PositionIndex } from '../core/stack/positionIndex';
import { symbolicate, type MapLookup, type SymbolicatedFrame } from '../core/stack/symbolicate';

/**
 * The estimated heap the map thread's parsed maps may take (createMapCache.ts, mapBytes): the
 * bound on what source maps cost a collector's memory beyond one parse under way (docs/source-maps.md, "Limits").
 */
export const MAP_CACHE_BYTES = 192 * 1024 * 1024;

/**
 * The release of the keys of maps found by the debug ID recorded for their script's URL (no release
 * is empty: a release has 1 to 200 characters): docs/source-maps.md, "Debug IDs".
 */
export const BY_DEBUG_ID = '';

/** A report whose frames are wanted: its release and its stack as stored. */
export interface FramesReport {
  release?: string | null | undefined;
  stack?: string | null | undefined;
}

/** The work the map thread does (mapThread.ts), one message each. */
export type MapJob =
  /** An upload's check; `key`: keep the parsed map under it; `index`: answer its position index too. */
  | { type: 'check'; text: string; key: string | null; index: boolean }
  /** A stored map to parse (if not kept) and index, for ingest's fingerprints. */
  | { type: 'index'; key: string; text: string }
  /**
   * Reports' frames. `texts`: map texts read from the store (null: none stored), by key; a key of
   * release BY_DEBUG_ID is the map the URL's one debug ID names, for reports without a release. Not `final`: keys neither kept nor
   * given are answered as `missing`.
   */
  | { type: 'frames'; siteKey: string; reports: FramesReport[]; texts: Array<[string, string | null]>; final: boolean }
  /** Maps replaced or deleted. */
  | { type: 'forget'; keys: string[] };

export type MapAnswer =
  | { valid: false }
  | { valid: true; index: PositionIndex | null }
  | { frames: SymbolicatedFrame[][] }
  | { missing: Array<{ key: string; release: string; url: string }> }
  | { forgotten: number };

/** The buffers of an answer's index, handed over to the HTTP thread instead of copied. */
export const transferablesOf = (answer: MapAnswer): ArrayBuffer[] => {
  if (!('index' in answer) || !answer.index) return [];
  const { lineStarts, columns, sources, lines, sourceInApp } = answer.index;
  return [lineStarts, columns, sources, lines, sourceInApp].map((array) => array.buffer as ArrayBuffer);
};

/**
 * The map thread's state (one cache of parsed maps, MAP_CACHE_BYTES) and its jobs: what runs on the
 * thread (mapThread.ts), or on the HTTP thread when no thread can start (mapWorker.ts).
 *
 * @example
 * const jobs = mapJobs();
 * jobs.run({ type: 'check', text, key: null, index: false }); // { valid: true, index: null }
 */
export const mapJobs = (cache = createMapCache({ maxBytes: MAP_CACHE_BYTES })) => {
  const frames = ({ siteKey, reports, texts, final }: Extract<MapJob, { type: 'frames' }>): MapAnswer => {
    const stacks = reports.map((report) => parseStack(report.stack ?? ''));
    const given = new Map(texts);
    /** Whether a key's map is known: kept, or its text (or its absence) given. */
    const known = (key: string) => cache.has(key) || given.has(key);
    if (!final) {
      const missing = new Map<string, { key: string; release: string; url: string }>();
      reports.forEach(({ release }, index) => {
        for (const frame of stacks[index]!) {
          // The release's maps; a report without a release, the map its script URL's debug ID names.
          for (const url of frame.file ? mapUrlsOf(frame.file) : []) {
            const key = mapKeyOf(siteKey, release || BY_DEBUG_ID, url);
            if (!known(key)) missing.set(key, { key, release: release || BY_DEBUG_ID, url });
          }
        }
      });
      if (missing.size) return { missing: [...missing.values()] };
    }
    const mapOf = (release: string, file: string) => {
      for (const url of mapUrlsOf(file)) {
        const key = mapKeyOf(siteKey, release, url);
        const map = cache.get(key, () => given.get(key) ?? undefined);
        if (map != 'no_map') return map;
      }
      return 'no_map';
    };
    return {
      frames: reports.map(({ release }, index) => {
        const lookup: MapLookup = (file) => {
          if (release) return mapOf(release, file);
          const byDebugId = mapOf(BY_DEBUG_ID, file);
          return byDebugId == 'no_map' ? 'no_release' : byDebugId;
        };
        return symbolicate(stacks[index]!, lookup);
      }),
    };
  };
  const run = (job: MapJob): MapAnswer => {
    switch (job.type) {
      case 'check': {
        const map = parseSourceMap(job.text);
        if (map == 'map_invalid') return { valid: false };
        if (job.key !== null) cache.set(job.key, job.text, map);
        return { valid: true, index: job.index ? buildPositionIndex(map) : null };
      }
      case 'index': {
        const map = cache.get(job.key, () => job.text);
        return map == 'map_invalid' || map == 'no_map' ? { valid: false } : { valid: true, index: buildPositionIndex(map) };
      }
      case 'frames':
        return frames(job);
      case 'forget':
        job.keys.forEach((key) => cache.forget(key));
        return { forgotten: job.keys.length };
    }
  };
  return { run, cache };
};
