import type { SourceMapStore } from '../store/contract/sourceMaps';
import { createIngestIndex } from './ingestIndex';
import { createMapWorker } from './mapWorker';

const services = new WeakMap<SourceMapStore, { worker: ReturnType<typeof createMapWorker>; index: ReturnType<typeof createIngestIndex> }>();

/**
 * A store's map thread and ingest index (docs/source-maps.md, "Limits"): ONE each per store,
 * whatever the number of collectors in the process (each has its own store), shared by the
 * uploads, the reads of events and ingest.
 *
 * @example
 * const { worker, index } = sourceMapsOf(store.sourceMaps);
 */
export const sourceMapsOf = (maps: SourceMapStore) => {
  let found = services.get(maps);
  if (!found) {
    const worker = createMapWorker();
    services.set(maps, (found = { worker, index: createIngestIndex(maps, worker) }));
  }
  return found;
};
