import { openCompactMap, type CompactMap } from '../core/stack/compactMap';
import { isInApp } from '../core/stack/isInApp';
import { mapKeyOf, mapUrlsOf } from '../core/stack/mapUrls';
import { parseStack } from '../core/stack/parseStack';
import { originalLineOf } from '../core/stack/positionIndex';
import type { SourceMapStore } from '../store/contract/sourceMaps';
import { collectGarbage } from './collectGarbage';
import { fileReader } from './mapFiles';
import type { MapWorker } from './mapWorker';

/** The maps' compact forms ingest keeps open (a file descriptor each, no heap), at most. */
export const INGEST_MAPS = 64;
/**
 * How long a report waits for its release's maps to be listed and compiled when this collector has
 * not seen the release yet (a restart): past this it keeps its minified fingerprint (docs/grouping.md, "Across releases").
 */
export const INGEST_WAIT_MS = 5_000;
/** How long what the store said of a release's maps is taken as true (another collector may upload meanwhile). */
export const RELEASE_CHECK_MS = 60_000;
/** Releases whose maps are remembered, at most (a report's release is anyone's text). */
export const MAX_RELEASES = 1_000;
/** Release checks under way or waiting, at most: past this a report's release is checked by a later report. */
export const MAX_RELEASE_CHECKS = 8;

interface Release {
  checkedAt: number;
  /** The release's maps: URL -> when uploaded (an upload replacing a map is seen by its time). */
  urls: Map<string, number>;
}

/**
 * What ingest knows of a site's releases' maps, on the HTTP thread (docs/grouping.md, "Across
 * releases"): per release, the URLs it has maps for, and the maps' compact forms, compiled to
 * files by the map thread (mapJobs.ts) and read here by range (a lookup reads a few hundred bytes,
 * no parse), INGEST_MAPS of them open, least recently used first out. A report of a release this
 * collector has not seen yet (since it started), or whose map is being compiled, waits for its
 * release's maps, up to INGEST_WAIT_MS, so that a restart does not split an issue; past that, or
 * past MAX_RELEASE_CHECKS under way, it keeps its minified fingerprint. An upload hands its
 * compiled map over as it is checked, so that the reports after it are grouped by the source at once.
 *
 * @example
 * const index = createIngestIndex(store.sourceMaps, worker);
 * newErrorReport(report, await index.originalOf(siteKey, report));
 */
export const createIngestIndex = (maps: SourceMapStore, worker: MapWorker, now = () => Date.now()) => {
  const releases = new Map<string, Release>();
  const indexes = new Map<string, { map: CompactMap; close: () => void; uploadedAt: number }>();
  /** The checks under way, by release: what a report of the release waits for. */
  const checking = new Map<string, Promise<void>>();
  let idle: Promise<void> = Promise.resolve();

  const dropIndex = (key: string) => {
    const entry = indexes.get(key);
    if (entry) (indexes.delete(key), entry.close());
  };
  /** Opens a compiled map's file (the thread may have deleted it meanwhile: its cache is full, or it restarted: not kept). */
  const keepIndex = (key: string, path: string, uploadedAt: number) => {
    dropIndex(key);
    let reader: ReturnType<typeof fileReader>;
    try {
      reader = fileReader(path);
    } catch {
      return;
    }
    indexes.set(key, { map: openCompactMap(reader), close: reader.close, uploadedAt });
    for (const [oldest] of indexes) {
      if (indexes.size <= INGEST_MAPS) break;
      dropIndex(oldest);
    }
  };
  const releaseOf = (siteKey: string, release: string) => {
    const key = mapKeyOf(siteKey, release, '');
    const found = releases.get(key);
    if (found) (releases.delete(key), releases.set(key, found));
    return found;
  };
  const remember = (siteKey: string, release: string, state: Release) => {
    releases.set(mapKeyOf(siteKey, release, ''), state);
    for (const [oldest] of releases) {
      if (releases.size <= MAX_RELEASES) break;
      releases.delete(oldest);
    }
  };

  /** Lists the release's maps and indexes those not indexed (or replaced since), one at a time. */
  const check = async (siteKey: string, release: string) => {
    const listed = await maps.list(siteKey, release);
    const state: Release = { checkedAt: now(), urls: new Map(listed.map((map) => [map.url, Date.parse(map.uploaded_at)])) };
    remember(siteKey, release, state);
    for (const [url, uploadedAt] of state.urls) {
      const key = mapKeyOf(siteKey, release, url);
      if (indexes.get(key)?.uploadedAt === uploadedAt) continue;
      const text = await maps.packed(siteKey, release, url);
      if (text === undefined) continue;
      const answer = await worker.run({ type: 'index', key, text });
      collectGarbage();
      if ('index' in answer && answer.index) keepIndex(key, answer.index, uploadedAt);
    }
  };
  const scheduleCheck = (siteKey: string, release: string, state: Release | undefined) => {
    if (checking.size >= MAX_RELEASE_CHECKS) return;
    // Marked checked now, so that the reports meanwhile do not check it again.
    remember(siteKey, release, { checkedAt: now(), urls: state?.urls ?? new Map() });
    const releaseKey = mapKeyOf(siteKey, release, '');
    const done = check(siteKey, release)
      .catch(() => {
        // The store or the thread failed: a later report checks again.
        const failed = releaseOf(siteKey, release);
        if (failed) failed.checkedAt = 0;
      })
      .finally(() => checking.delete(releaseKey));
    checking.set(releaseKey, done);
    idle = Promise.all([idle, done]).then(() => undefined);
  };
  /** Waits for the release's check under way, if any, up to INGEST_WAIT_MS. */
  const waitFor = async (siteKey: string, release: string) => {
    const under = checking.get(mapKeyOf(siteKey, release, ''));
    if (!under) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([under, new Promise((resolve) => (timer = setTimeout(resolve, INGEST_WAIT_MS)))]);
    clearTimeout(timer);
  };
  /** The place of the report's first in-app frame with what is indexed now; 'wait' when its map is listed and not indexed. */
  const placeOf = (siteKey: string, release: string, stack: string, state: Release) => {
    for (const frame of parseStack(stack)) {
      if (!frame.file || frame.line === null || !isInApp(frame.file)) continue;
      const url = mapUrlsOf(frame.file).find((candidate) => state.urls.has(candidate));
      const entry = url === undefined ? undefined : indexes.get(mapKeyOf(siteKey, release, url));
      if (!entry) return url === undefined ? null : ('wait' as const);
      let original: ReturnType<typeof originalLineOf> = null;
      try {
        original = originalLineOf(entry.map, frame.line, frame.column ?? 1);
      } catch {
        // Its file unreadable: no place.
      }
      if (!original) return null;
      if (original.inApp) return { source: original.source, line: original.line };
    }
    return null;
  };

  return {
    /**
     * Where the report's stack's first in-app frame is in the source (its source and 1-based line),
     * when its release has a map for that frame's script that is indexed; null otherwise. Frames
     * mapped into a library's sources (node_modules, the map's ignoreList) are passed over.
     */
    async originalOf(siteKey: string, report: { release?: string | null | undefined; stack?: string | null | undefined }) {
      const { release, stack } = report;
      if (!release || !stack) return null;
      let state = releaseOf(siteKey, release);
      if (!state || now() - state.checkedAt > RELEASE_CHECK_MS) scheduleCheck(siteKey, release, state);
      // A release not seen since this collector started: its maps are listed and compiled first.
      if (!state) await waitFor(siteKey, release);
      state = releaseOf(siteKey, release);
      if (!state?.urls.size) return null;
      const place = placeOf(siteKey, release, stack, state);
      if (place != 'wait') return place;
      await waitFor(siteKey, release);
      const again = placeOf(siteKey, release, stack, state);
      return again == 'wait' ? null : again;
    },
    /** An upload's map, checked and compiled (`path`: its compact form's file; null: not kept), stored for the release and URL. */
    uploaded(siteKey: string, release: string, url: string, path: string | null, uploadedAt: number) {
      const state = releaseOf(siteKey, release);
      if (state) state.urls.set(url, uploadedAt);
      else remember(siteKey, release, { checkedAt: 0, urls: new Map([[url, uploadedAt]]) });
      const key = mapKeyOf(siteKey, release, url);
      if (path) keepIndex(key, path, uploadedAt);
      else dropIndex(key);
    },
    /** The release's maps (or its one map for `url`) were deleted. */
    deleted(siteKey: string, release: string, url?: string) {
      const state = releaseOf(siteKey, release);
      for (const gone of url === undefined ? [...(state?.urls.keys() ?? [])] : [url]) {
        state?.urls.delete(gone);
        dropIndex(mapKeyOf(siteKey, release, gone));
      }
    },
    /** Resolves once the release checks started so far are done (tests; the bench). */
    settled: () => idle,
    /** The compact maps kept open. */
    size: () => ({ maps: indexes.size }),
  };
};

export type IngestIndex = ReturnType<typeof createIngestIndex>;
