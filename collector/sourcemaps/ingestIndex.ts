import { isInApp } from '../core/stack/isInApp';
import { mapKeyOf, mapUrlsOf } from '../core/stack/mapUrls';
import { parseStack } from '../core/stack/parseStack';
import { indexBytes, originalLineOf, type PositionIndex } from '../core/stack/positionIndex';
import type { SourceMapStore } from '../store/contract/sourceMaps';
import type { MapWorker } from './mapWorker';

/** The position indexes the HTTP thread keeps for ingest, at most (positionIndex.ts: 12 bytes a mapping). */
export const INGEST_INDEX_BYTES = 32 * 1024 * 1024;
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
 * releases"): per release, the URLs it has maps for, and the maps' position indexes, made on the
 * map thread (mapJobs.ts) and kept least recently used first out within INGEST_INDEX_BYTES. It
 * answers at once, never waiting for the store or a parse: a release not checked yet, or whose map
 * is not indexed yet, answers null (the report keeps its minified fingerprint) and has its maps
 * loaded in the background. An upload indexes its map as it is checked, so that the reports after
 * it are grouped by the source at once.
 *
 * @example
 * const index = createIngestIndex(store.sourceMaps, worker);
 * newErrorReport(report, index.originalOf(siteKey, report));
 */
export const createIngestIndex = (maps: SourceMapStore, worker: MapWorker, now = () => Date.now()) => {
  const releases = new Map<string, Release>();
  const indexes = new Map<string, { index: PositionIndex; bytes: number; uploadedAt: number }>();
  let bytes = 0;
  let checks = 0;
  let idle: Promise<void> = Promise.resolve();

  const dropIndex = (key: string) => {
    const entry = indexes.get(key);
    if (entry) (indexes.delete(key), (bytes -= entry.bytes));
  };
  const keepIndex = (key: string, index: PositionIndex, uploadedAt: number) => {
    dropIndex(key);
    const size = indexBytes(index);
    if (size > INGEST_INDEX_BYTES) return;
    indexes.set(key, { index, bytes: size, uploadedAt });
    bytes += size;
    for (const [oldest] of indexes) {
      if (bytes <= INGEST_INDEX_BYTES) break;
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
      const text = await maps.text(siteKey, release, url);
      if (text === undefined) continue;
      const answer = await worker.run({ type: 'index', key, text });
      if ('index' in answer && answer.index) keepIndex(key, answer.index, uploadedAt);
    }
  };
  const scheduleCheck = (siteKey: string, release: string, state: Release | undefined) => {
    if (checks >= MAX_RELEASE_CHECKS) return;
    // Marked checked now, so that the reports meanwhile do not check it again.
    remember(siteKey, release, { checkedAt: now(), urls: state?.urls ?? new Map() });
    checks++;
    const done = check(siteKey, release)
      .catch(() => {
        // The store or the thread failed: a later report checks again.
        const failed = releaseOf(siteKey, release);
        if (failed) failed.checkedAt = 0;
      })
      .finally(() => checks--);
    idle = Promise.all([idle, done]).then(() => undefined);
  };

  return {
    /**
     * Where the report's stack's first in-app frame is in the source (its source and 1-based line),
     * when its release has a map for that frame's script that is indexed; null otherwise. Frames
     * mapped into a library's sources (node_modules, the map's ignoreList) are passed over.
     */
    originalOf(siteKey: string, report: { release?: string | null | undefined; stack?: string | null | undefined }) {
      if (!report.release || !report.stack) return null;
      const state = releaseOf(siteKey, report.release);
      if (!state || now() - state.checkedAt > RELEASE_CHECK_MS) scheduleCheck(siteKey, report.release, state);
      if (!state?.urls.size) return null;
      for (const frame of parseStack(report.stack)) {
        if (!frame.file || frame.line === null || !isInApp(frame.file)) continue;
        const url = mapUrlsOf(frame.file).find((candidate) => state.urls.has(candidate));
        const entry = url === undefined ? undefined : indexes.get(mapKeyOf(siteKey, report.release, url));
        if (!entry) return null;
        const original = originalLineOf(entry.index, frame.line, frame.column ?? 1);
        if (!original) return null;
        if (original.inApp) return { source: original.source, line: original.line };
      }
      return null;
    },
    /** An upload's map, checked and indexed (null: too many mappings to index), stored for the release and URL. */
    uploaded(siteKey: string, release: string, url: string, index: PositionIndex | null, uploadedAt: number) {
      const state = releaseOf(siteKey, release);
      if (state) state.urls.set(url, uploadedAt);
      else remember(siteKey, release, { checkedAt: 0, urls: new Map([[url, uploadedAt]]) });
      const key = mapKeyOf(siteKey, release, url);
      if (index) keepIndex(key, index, uploadedAt);
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
    /** The indexes kept and their bytes. */
    size: () => ({ maps: indexes.size, bytes }),
  };
};

export type IngestIndex = ReturnType<typeof createIngestIndex>;
