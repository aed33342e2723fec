import { createMapCache } from '../core/stack/createMapCache';
import { mapKeyOf, mapUrlsOf } from '../core/stack/mapUrls';
import { parseStack } from '../core/stack/parseStack';
import { symbolicate, type MapLookup, type SymbolicatedFrame } from '../core/stack/symbolicate';
import { unpackMapTextSync } from '../store/sourceMapText';
import { compileToFile } from './mapFiles';

/**
 * The disk the map thread's compact maps may take (mapFiles.ts), least recently used first out:
 * about 50 maps of 20 MB. A kept map costs a file descriptor and no heap (docs/source-maps.md, "The map thread").
 */
export const MAP_FILES_BYTES = 1024 * 1024 * 1024;

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
  /** An upload's check; `key`: keep the compiled map under it; `index`: answer its file too, for ingest. */
  | { type: 'check'; text: string; key: string | null; index: boolean }
  /**
   * A stored map to compile and keep (if not kept): for a read's frames, and ingest's fingerprints
   * (its file answered). `text` as the store keeps it, compressed (SourceMapStore.packed), or as text.
   */
  | { type: 'index'; key: string; text: string | Uint8Array }
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
  /** `index`: the kept map's compact form's file, which ingest reads (ingestIndex.ts). */
  | { valid: true; index: string | null }
  | { frames: SymbolicatedFrame[][] }
  | { missing: Array<{ key: string; release: string; url: string }> }
  | { forgotten: number };

/**
 * The map thread's state (one cache of compiled maps, their files in `dir`, MAP_FILES_BYTES) and
 * its jobs: what runs on the thread (mapThread.ts), or on the HTTP thread when no thread can start (mapWorker.ts).
 *
 * @example
 * const jobs = mapJobs(dir);
 * jobs.run({ type: 'check', text, key: null, index: false }); // { valid: true, index: null }
 */
export const mapJobs = (dir: string) => {
  const compile = compileToFile(dir);
  const cache = createMapCache({ maxBytes: MAP_FILES_BYTES }, compile);
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
        if (job.key === null) {
          const entry = compile(job.text);
          entry.dispose?.();
          return entry.map == 'map_invalid' ? { valid: false } : { valid: true, index: null };
        }
        if (cache.put(job.key, job.text) == 'map_invalid') return { valid: false };
        return { valid: true, index: job.index ? (cache.peek(job.key)?.path ?? null) : null };
      }
      case 'index': {
        const map = cache.get(job.key, () => (typeof job.text == 'string' ? job.text : unpackMapTextSync(job.text)));
        return map == 'map_invalid' || map == 'no_map' ? { valid: false } : { valid: true, index: cache.peek(job.key)?.path ?? null };
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
