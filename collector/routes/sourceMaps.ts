import { mapDebugId } from '../core/stack/mapDebugId';
import { MAX_MAP_CHARS, parseSourceMap } from '../core/stack/parseSourceMap';
import { apiError } from '../http/apiError';
import { defineRoute } from '../http/route';
import { SourceMapDeletedSchema, SourceMapListSchema, SourceMapStoredSchema } from '../schemas/answers/sourceMapAnswers';
import { MAX_SOURCE_MAP_BODY_BYTES, SourceMapDeleteQuerySchema, SourceMapListQuerySchema, SourceMapUploadSchema } from '../schemas/sourceMapUpload';
import type { Store } from '../store/contract';

const TAG = 'Source maps';
const PATH = '/api/v1/sites/:site_key/sourcemaps';

/**
 * A site's source maps (docs/source-maps.md, "The API"): upload one for a release and a script's
 * URL, list a release's, remove a release's or one. An API key of the site (or a signed-in user
 * who may see it). A map is checked as frames would read it (parseSourceMap) before it is stored:
 * a map that would only ever say `map_invalid` is refused.
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
    },
    async handle({ event, site, body }) {
      if (body.map.length > MAX_MAP_CHARS) throw apiError(413, 'payload_too_large', `the map is longer than ${MAX_MAP_CHARS} characters`);
      // Parsed on this thread: a map at the limit takes a moment (docs/source-maps.md, "Limits").
      if (parseSourceMap(body.map) == 'map_invalid') {
        throw apiError(400, 'invalid_source_map', 'the map is not a revision 3 source map whose mappings decode within its sources and names');
      }
      const debug_id = mapDebugId(body.map);
      await store.sourceMaps.put(site!.site_key, { release: body.release, url: body.url, debug_id, text: body.map });
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
    handle: async ({ site, query }) => ({ deleted: await store.sourceMaps.delete(site!.site_key, query.release, query.url) }),
  }),
];
