import { mapDebugId } from '../core/stack/mapDebugId';
import { mapKeyOf } from '../core/stack/mapUrls';
import { MAX_MAP_CHARS } from '../core/stack/parseSourceMap';
import { apiError } from '../http/apiError';
import { defineRoute } from '../http/route';
import { SourceMapDeletedSchema, SourceMapListSchema, SourceMapStoredSchema } from '../schemas/answers/sourceMapAnswers';
import { MAX_SOURCE_MAP_BODY_BYTES, SourceMapDeleteQuerySchema, SourceMapListQuerySchema, SourceMapUploadSchema } from '../schemas/sourceMapUpload';
import { collectGarbage } from '../sourcemaps/collectGarbage';
import { BY_DEBUG_ID } from '../sourcemaps/mapJobs';
import { MapThreadUnavailable } from '../sourcemaps/mapWorker';
import { sourceMapsOf } from '../sourcemaps/sourceMapsOf';
import type { Store } from '../store/contract';

const TAG = 'Source maps';
const PATH = '/api/v1/sites/:site_key/sourcemaps';
/** A 503 of a route whose work is done on the source map thread. */
export const MAP_THREAD_UNAVAILABLE = 'source_maps_unavailable: the source map thread stopped or has too many jobs: try again (docs/source-maps.md, "Limits")';

/**
 * A job of the map thread, its being unavailable answered 503 with `Retry-After`: the thread
 * stopped (a crash, or ended) before answering, or has too many jobs; the next request starts it again.
 *
 * @example
 * const answer = await onMapThread(() => worker.run({ type: 'check', text, key: null, index: false }));
 */
export const onMapThread = async <T>(job: () => Promise<T>): Promise<T> => {
  try {
    return await job();
  } catch (error) {
    if (error instanceof MapThreadUnavailable) throw apiError(503, 'source_maps_unavailable', error.message, { 'retry-after': '1' });
    throw error;
  }
};

/**
 * A site's source maps (docs/source-maps.md, "The API"): upload one for a release and a script's
 * URL, list a release's, remove a release's or one. An API key of the site (or a signed-in user
 * who may see it). A map is checked as frames would read it (parseSourceMap), on the map thread
 * (sourcemaps/mapWorker.ts), before it is stored: a map that would only ever say `map_invalid` is
 * refused. A stored map stays compiled on that thread (its compact form's file), and that file is
 * handed to ingest's grouping (sourcemaps/ingestIndex.ts).
 */
export const sourceMapRoutes = ({ store }: { store: Pick<Store, 'sourceMaps'> }) => [
  defineRoute({
    method: 'POST',
    path: PATH,
    tag: TAG,
    summary: "Upload a source map for a release and a script's URL (replacing the one stored for both)",
    auth: 'siteApiKey',
    body: { schema: SourceMapUploadSchema, mediaTypes: ['application/json', 'multipart/form-data'], maxBytes: MAX_SOURCE_MAP_BODY_BYTES },
    responses: {
      201: { description: 'Stored', schema: SourceMapStoredSchema },
      400: 'invalid_source_map: the map does not parse as a revision 3 source map (docs/source-maps.md, "Why a frame is not mapped")',
      413: `payload_too_large: the body is over ${MAX_SOURCE_MAP_BODY_BYTES / 1024 / 1024} MiB, or the map over ${MAX_MAP_CHARS} characters`,
      503: MAP_THREAD_UNAVAILABLE,
    },
    async handle({ event, site, body }) {
      if (body.map.length > MAX_MAP_CHARS) throw apiError(413, 'payload_too_large', `the map is longer than ${MAX_MAP_CHARS} characters`);
      const siteKey = site!.site_key;
      const { worker, index } = sourceMapsOf(store.sourceMaps);
      const key = mapKeyOf(siteKey, body.release, body.url);
      const checked = await onMapThread(() => worker.run({ type: 'check', text: body.map, key, index: true }));
      if (!('valid' in checked) || !checked.valid) {
        throw apiError(400, 'invalid_source_map', 'the map is not a revision 3 source map whose mappings decode within its sources and names');
      }
      const debug_id = mapDebugId(body.map);
      const at = Date.now();
      try {
        await store.sourceMaps.put(siteKey, { release: body.release, url: body.url, debug_id, text: body.map }, at);
      } catch (error) {
        // Not stored: the thread lets go of the map it kept for it.
        await worker.run({ type: 'forget', keys: [key] }).catch(() => {});
        throw error;
      }
      index.uploaded(siteKey, body.release, body.url, checked.index, at);
      // What the URL's debug ID named may have changed with this map (reads/eventFrames.ts).
      await worker.run({ type: 'forget', keys: [mapKeyOf(siteKey, BY_DEBUG_ID, body.url)] }).catch(() => {});
      // The map's text (tens of MB) is garbage once its answer is sent: collected then.
      setImmediate(collectGarbage);
      event.res.status = 201;
      return { release: body.release, url: body.url, debug_id };
    },
  }),
  defineRoute({
    method: 'GET',
    path: PATH,
    tag: TAG,
    summary: "A release's source maps, by URL",
    auth: 'siteApiKey',
    query: SourceMapListQuerySchema,
    responses: { 200: { description: 'Maps', schema: SourceMapListSchema } },
    handle: async ({ site, query }) => ({ items: await store.sourceMaps.list(site!.site_key, query.release) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: PATH,
    tag: TAG,
    summary: "Remove a release's source maps, or its one map for `url`",
    auth: 'siteApiKey',
    query: SourceMapDeleteQuerySchema,
    responses: { 200: { description: 'Removed', schema: SourceMapDeletedSchema } },
    async handle({ site, query }) {
      const siteKey = site!.site_key;
      const urls = query.url === undefined ? (await store.sourceMaps.list(siteKey, query.release)).map((map) => map.url) : [query.url];
      const deleted = await store.sourceMaps.delete(siteKey, query.release, query.url);
      const { worker, index } = sourceMapsOf(store.sourceMaps);
      index.deleted(siteKey, query.release, query.url);
      // The parsed maps go too; should the thread be stopped, it kept nothing.
      const keys = urls.flatMap((url) => [mapKeyOf(siteKey, query.release, url), mapKeyOf(siteKey, BY_DEBUG_ID, url)]);
      await worker.run({ type: 'forget', keys }).catch(() => {});
      return { deleted };
    },
  }),
];
