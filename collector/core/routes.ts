/**
 * Page URLs grouped into routes (docs/vitals.md, "Routes"): `/products/1?ref=mail` and
 * `/products/2` are one route, `/products/:id`. Pure functions with bounded work whatever the URL:
 * at most `MAX_PATH` characters and `MAX_SEGMENTS` segments are looked at.
 */

/** Characters of a URL's path looked at; the beacon sends page URLs of at most 2,048 (docs/wire-format.md). */
export const MAX_PATH = 2048;
/** Segments a route keeps; a longer path's route ends with `/*` in their place. */
export const MAX_SEGMENTS = 32;
/** A segment longer than this is an id, whatever its characters: no route has words so long. */
const MAX_WORD = 120;
/** Patterns a site may have, and the longest one: each session's route is matched against them all. */
export const MAX_PATTERNS = 50;
export const MAX_PATTERN_LENGTH = 200;

/** `scheme://authority` and the rest (as core/reportUrl.ts reads a URL). */
const HIERARCHICAL = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(.*)$/is;
const DIGITS = /^\d+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A hash or hex id: 12 hex characters or more, with a digit (so that a word like "acceptedface" stays). */
const HEX = /^(?=.*\d)[0-9a-f]{12,}$/i;
/** A generated token (ULID, base62 id): 20 letters and digits or more without separators, with both. */
const TOKEN = /^(?=.*\d)(?=.*[a-z])[a-z0-9]{20,}$/i;

/** A segment's text decoded for the id tests alone (`%31` is `1`); undecodable text as it is. */
const decoded = (segment: string) => {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** Whether a path segment is an id: digits, a UUID, a long hex string or generated token, or anything over `MAX_WORD` characters. */
export const isIdSegment = (segment: string) => {
  if (segment.length > MAX_WORD) return true;
  const text = decoded(segment);
  return DIGITS.test(text) || UUID.test(text) || HEX.test(text) || TOKEN.test(text);
};

/**
 * A URL's path as segments (empty ones dropped: `/a//b/` is `/a/b`), the query and fragment left
 * out; at most `MAX_SEGMENTS + 1` of them, so that a longer path is known to be longer. Undefined
 * for what has no path: a URL without an authority, text that is no URL.
 */
export const pathSegments = (url: string): string[] | undefined => {
  const path = url.startsWith('/') ? url : HIERARCHICAL.exec(url.slice(0, MAX_PATH + 1024))?.[1];
  if (path === undefined) return undefined;
  const end = path.search(/[?#]/);
  const segments: string[] = [];
  for (const segment of (end < 0 ? path : path.slice(0, end)).slice(0, MAX_PATH).split('/')) {
    if (segment === '') continue;
    segments.push(segment);
    if (segments.length > MAX_SEGMENTS) break;
  }
  return segments;
};

/** A site's route pattern, parsed (`parseRoutePattern`). */
export interface RoutePattern {
  /** The pattern as written, and the route of the URLs it matches. */
  text: string;
  /** Each segment: a literal, `:name` (any one segment) or, last, `*` (one segment or more). */
  segments: Array<{ literal: string } | { param: string } | { rest: true }>;
}

const PARAM = /^:[A-Za-z_][A-Za-z0-9_]{0,39}$/;
/** A literal segment: the characters of a URL path's segment (RFC 3986 pchar), percent-escapes included. */
const LITERAL = /^[A-Za-z0-9._~!$&'()+,;=@%-]+$/;

/**
 * A route pattern checked and parsed: `/blog/:slug`, `/docs/*`. It starts with `/`, is at most
 * `MAX_PATTERN_LENGTH` characters and `MAX_SEGMENTS` segments; each segment is a literal, a
 * `:name`, or `*` as the last one; a trailing `/` is dropped. An error names what is wrong.
 *
 * @example
 * parseRoutePattern('/blog/:slug/') // { pattern: { text: '/blog/:slug', segments: [{ literal: 'blog' }, { param: ':slug' }] } }
 * parseRoutePattern('blog') // { error: 'a route pattern starts with /, like /blog/:slug' }
 */
export const parseRoutePattern = (input: string): { pattern: RoutePattern } | { error: string } => {
  if (input.length > MAX_PATTERN_LENGTH) return { error: `a route pattern is at most ${MAX_PATTERN_LENGTH} characters` };
  if (!input.startsWith('/')) return { error: 'a route pattern starts with /, like /blog/:slug' };
  if (/[?#]/.test(input)) return { error: 'a route pattern is a path: no query (?) nor fragment (#)' };
  const parts = input.replace(/\/$/, '').split('/').slice(1);
  if (parts.length > MAX_SEGMENTS) return { error: `a route pattern has at most ${MAX_SEGMENTS} segments` };
  const segments: RoutePattern['segments'] = [];
  for (const [index, part] of parts.entries()) {
    if (part === '') return { error: 'a route pattern has no empty segment (//)' };
    if (part == '*') {
      if (index != parts.length - 1) return { error: '* stands for the rest of the path: it is the last segment only' };
      segments.push({ rest: true });
    } else if (part.startsWith(':')) {
      if (!PARAM.test(part)) return { error: `${JSON.stringify(part.slice(0, 50))}: a parameter is : and a name of letters, digits and _, like :slug` };
      segments.push({ param: part });
    } else if (LITERAL.test(part)) {
      segments.push({ literal: part });
    } else {
      return { error: `${JSON.stringify(part.slice(0, 50))}: a segment is letters, digits and - . _ ~ % (or :name, or * last)` };
    }
  }
  return { pattern: { text: `/${parts.join('/')}`, segments } };
};

const matches = ({ segments }: RoutePattern, path: string[]) => {
  const rest = segments.length > 0 && 'rest' in segments[segments.length - 1]!;
  if (rest ? path.length < segments.length : path.length != segments.length) return false;
  return segments.every((segment, index) => !('literal' in segment) || segment.literal === path[index]);
};

/**
 * A page URL's route: its path without query or fragment; the first of `patterns` that matches
 * it, as written; else each id segment (`isIdSegment`) as `:id`, and past `MAX_SEGMENTS` segments
 * `/*`. `''` for no URL, or one without a path to group by.
 *
 * @example
 * routeOf('https://shop.example/products/1?ref=mail#reviews') // '/products/:id'
 * routeOf('https://shop.example/blog/hello-world', [parsed('/blog/:slug')]) // '/blog/:slug'
 */
export const routeOf = (pageUrl: string | null | undefined, patterns: readonly RoutePattern[] = []): string => {
  const path = typeof pageUrl == 'string' ? pathSegments(pageUrl) : undefined;
  if (path === undefined) return '';
  const pattern = patterns.find((each) => matches(each, path));
  if (pattern) return pattern.text;
  const kept = path.slice(0, MAX_SEGMENTS).map((segment) => (isIdSegment(segment) ? ':id' : segment));
  return `/${kept.join('/')}${path.length > MAX_SEGMENTS ? '/*' : ''}`;
};
