import { MAX_REQUEST_BODY_BYTES } from '../../beacon/lib/wire';
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { H3Event } from 'h3';
import { apiError } from './apiError';
import { continueIfExpected } from './expectContinue';

/** Largest request body the collector reads (docs/wire-format.md, "Limits": 413 above it), from the wire format. */
export const MAX_BODY_BYTES = MAX_REQUEST_BODY_BYTES;

/** No report nests deeper; deeper JSON is refused (400) before anything recursive sees it. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether parsed JSON nests arrays and objects deeper than `limit`: a walk with a stack of its
 * own, never recursion. After JSON.parse, which V8 runs without recursion whatever the depth, it
 * visits each value once, where a pass over the text visited each character (a large share of
 * reading a batch of reports: docs/performance.md).
 *
 * @example
 * nestsDeeper(JSON.parse('[[[1]]]'), 2); // true
 */
export const nestsDeeper = (value: unknown, limit: number) => {
  if (typeof value != 'object' || value === null) return false;
  if (limit < 1) return true;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length) {
    const [container, depth] = stack.pop()!;
    for (const child of Array.isArray(container) ? container : Object.values(container)) {
      if (typeof child != 'object' || child === null) continue;
      if (depth + 1 > limit) return true;
      stack.push([child, depth + 1]);
    }
  }
  return false;
};


/** `fetch` sends the spec's JSON type; `sendBeacon` sends a string as text/plain. */
export const JSON_MEDIA_TYPES = ['application/json', 'text/plain'];

/** The request's media type, lowercase, without parameters; '' without a Content-Type. */
export const mediaTypeOf = (event: H3Event) => {
  const header = event.req.headers.get('content-type') || '';
  // The common case as it is, without splitting (docs/performance.md).
  return header == 'application/json' ? header : header.split(';')[0]!.trim().toLowerCase();
};

/** Reads a Node request's body straight from the socket, stopping at `limit` bytes. */
const readNodeBody = (request: IncomingMessage, limit: number, tooLarge: () => Error) =>
  new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (finish: () => void) => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      finish();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.pause();
        return done(() => reject(tooLarge()));
      }
      chunks.push(chunk);
    };
    const onEnd = () => done(() => resolve(chunks.length == 1 ? chunks[0]! : Buffer.concat(chunks)));
    // The client hung up or timed out mid-body: nobody will read the answer, and it is no bug of ours.
    const gone = () => apiError(400, 'bad_request', 'the connection closed before the body ended');
    const onError = () => done(() => reject(gone()));
    const onClose = () => done(() => reject(gone()));
    request.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
    // Only now, every check passed, is a client that waits for it invited to send the body.
    continueIfExpected(request);
  });

const readLimited = async (event: H3Event, limit: number): Promise<Uint8Array> => {
  // The connection is closed after a 413: the rest of an oversized body is never read.
  const tooLarge = () => apiError(413, 'payload_too_large', `the body is larger than ${limit} bytes`, { connection: 'close' });
  const declared = Number(event.req.headers.get('content-length'));
  // Decided before reading a byte when the client says how much it sends...
  if (declared > limit) throw tooLarge();
  // Under Node (srvx), straight from the socket: a web stream costs more than the rest of the request.
  const nodeRequest = (event.req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
  if (nodeRequest) return readNodeBody(nodeRequest, limit, tooLarge);
  const stream = event.req.body;
  if (!stream) return new Uint8Array();
  // ...and while streaming when it does not (chunked bodies).
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
};

/**
 * Reads a JSON request body: checks the media type (415), the size (413) and the encoding and
 * syntax (400 `invalid_json`).
 *
 * @example
 * const body = await readJsonBody(event, { mediaTypes: JSON_MEDIA_TYPES });
 */
export const readJsonBody = async (
  event: H3Event,
  { mediaTypes, limit = MAX_BODY_BYTES }: { mediaTypes: string[]; limit?: number },
): Promise<unknown> => {
  const mediaType = mediaTypeOf(event);
  if (!mediaTypes.includes(mediaType)) {
    throw apiError(
      415,
      'unsupported_media_type',
      `Content-Type ${mediaType ? `"${mediaType}"` : '(none)'} is not accepted here; send ${mediaTypes.join(' or ')}`,
    );
  }
  const bytes = await readLimited(event, limit);
  if (bytes.byteLength == 0) throw apiError(400, 'invalid_json', 'the body is empty');
  // node:buffer's isUtf8 (simdutf) and a plain decode: a fatal TextDecoder costs more per call.
  if (!isUtf8(bytes)) throw apiError(400, 'invalid_json', 'the body is not valid UTF-8');
  const decoded = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  // A leading byte order mark is dropped, as TextDecoder drops it (Encoding, "UTF-8 decode").
  const text = decoded.charCodeAt(0) == 0xfeff ? decoded.slice(1) : decoded;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw apiError(400, 'invalid_json', `the body is not valid JSON: ${(error as Error).message}`);
  }
  if (nestsDeeper(value, MAX_JSON_DEPTH)) {
    throw apiError(400, 'invalid_json', `the JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  return value;
};

/**
 * Reads a `multipart/form-data` body, for a route that takes one beside JSON (a source map's
 * upload: docs/source-maps.md, "The API"), bounded as a JSON body is (413), into an object of its
 * fields: a file's content as text, a field given twice as an array (which a schema taking a
 * string refuses). 400 `invalid_request` for a body that is no form.
 *
 * @example
 * const fields = await readFormBody(event, { limit: 32 * 1024 * 1024 }); // { release: '1.2', url: '~/app.js', map: '{…}' }
 */
export const readFormBody = async (event: H3Event, { limit = MAX_BODY_BYTES }: { limit?: number | undefined }) => {
  const bytes = await readLimited(event, limit);
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': event.req.headers.get('content-type') ?? '' } }).formData();
  } catch {
    throw apiError(400, 'invalid_request', 'the body is not a multipart/form-data form');
  }
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form) {
    const text = typeof value == 'string' ? value : await value.text();
    fields[name] = name in fields ? [fields[name], text].flat() : text;
  }
  return fields;
};
