import { promisify } from 'node:util';
import { gunzip, gunzipSync, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * A map's text as stored: gzip, on zlib's thread pool so that compressing a map of megabytes blocks
 * no request (a map's text compresses to a few times smaller: mostly base64 and source text).
 *
 * @example
 * const bytes = await packMapText('{"version":3,…}');
 */
export const packMapText = (text: string) => gzipAsync(Buffer.from(text, 'utf8'));

/**
 * A stored map's text back, decompressed off the event loop too; undefined for no row.
 *
 * @example
 * const text = await unpackMapText(row?.map);
 */
export const unpackMapText = async (bytes: Uint8Array | undefined) => (bytes ? (await gunzipAsync(bytes)).toString('utf8') : undefined);

/**
 * A stored map's text back, decompressed on the calling thread: the source map thread's, which
 * receives the compressed bytes alone (sourcemaps/mapJobs.ts).
 *
 * @example
 * const text = unpackMapTextSync(await store.sourceMaps.packed(site, release, url));
 */
export const unpackMapTextSync = (bytes: Uint8Array) => gunzipSync(bytes).toString('utf8');
