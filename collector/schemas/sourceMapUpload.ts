import * as v from 'valibot';
import { MAX_RELEASE_LENGTH } from '../../beacon/lib/wire';
import { MAX_MAP_CHARS } from '../core/stack/parseSourceMap';
import { NO_CONTROL_CHARACTERS } from './fields';

// The source maps API's body and query strings (docs/source-maps.md, "The API"). Every value is
// bounded and refused with a 400 naming it, never cut.

/**
 * The largest body of an upload, in bytes: a map of MAX_MAP_CHARS characters in a JSON string,
 * with room for the escapes of its sources' text (quotes, newlines, non-ASCII as UTF-8). 413 above.
 */
export const MAX_SOURCE_MAP_BODY_BYTES = 48 * 1024 * 1024;

/** The longest script URL a map is stored for. */
export const MAX_SOURCE_MAP_URL = 2048;

const release = v.pipe(
  v.string('release must be a string, given once'),
  v.minLength(1, 'release must not be empty'),
  v.maxLength(MAX_RELEASE_LENGTH, `release must be at most ${MAX_RELEASE_LENGTH} characters`),
  v.regex(NO_CONTROL_CHARACTERS, 'release must not hold control characters'),
  v.description("The release the reports name (the beacon's `release`)"),
);

/** `~/path` (any origin of the site) or an absolute http(s) URL, as a stack names the script. */
const url = v.pipe(
  v.string('url must be a string, given once'),
  v.maxLength(MAX_SOURCE_MAP_URL, `url must be at most ${MAX_SOURCE_MAP_URL} characters`),
  v.regex(/^(?:~\/|https?:\/\/)\S*$/, 'url must be ~/ followed by the script\'s path, or an http(s) URL, with no spaces'),
  v.regex(NO_CONTROL_CHARACTERS, 'url must not hold control characters'),
  v.description("The minified script's URL, or ~/ and its path for any origin of the site"),
);

/** `POST /api/v1/sites/{site_key}/sourcemaps`: one map, its text as a JSON string. */
export const SourceMapUploadSchema = v.strictObject({
  release,
  url,
  map: v.pipe(v.string('map must be the source map\'s JSON text, as a string'), v.description(`The map's text, at most ${MAX_MAP_CHARS} characters`)),
});

/** `GET .../sourcemaps?release=R`. */
export const SourceMapListQuerySchema = v.object({ release });

/** `DELETE .../sourcemaps?release=R[&url=U]`. */
export const SourceMapDeleteQuerySchema = v.object({ release, url: v.optional(url) });
