import { sourceForUrl } from './sourceForUrl';

/**
 * What CSP3 reports instead of a URL (a violation's resource, #violation-resource: "inline", "eval", "wasm-eval",
 * "trusted-types-*"; CSP2 browsers also send "data", "blob"), with the keyword that would allow
 * it and the directives where that keyword means something. A Map, looked up with own keys only.
 */
const KEYWORD_REPORTS: ReadonlyMap<string, { keyword: string; fits: ReadonlySet<string> }> = /* @__PURE__ */ new Map([
  ['inline', {
    keyword: "'unsafe-inline'",
    fits: new Set(['script-src', 'script-src-elem', 'script-src-attr', 'style-src', 'style-src-elem', 'style-src-attr']),
  }],
  // eval() and new Function() are checked against script-src (CSP3 EnsureCSPDoesNotBlockStringCompilation, #can-compile-strings).
  ['eval', { keyword: "'unsafe-eval'", fits: new Set(['script-src']) }],
  ['wasm-eval', { keyword: "'wasm-unsafe-eval'", fits: new Set(['script-src']) }],
]);

export interface Candidate {
  /** The source expression that would allow what was blocked. */
  source: string;
  /** The blocked URL, when it was one (keywords have none). */
  url?: URL;
}

const parseUrl = (text: string) => {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
};

/**
 * The source expression a violation of `directive` asks for: a keyword only where it fits the
 * directive (a forged `img-src` report of "inline" asks for nothing), `data:`/`blob:` for those
 * schemes, `'self'` or an origin for a URL. Undefined for anything else (Trusted Types sinks,
 * garbage, URLs no source expression can name).
 *
 * @example
 * sourceForViolation('script-src', 'eval', 'https://shop.example/');        // { source: "'unsafe-eval'" }
 * sourceForViolation('img-src', 'inline', 'https://shop.example/');         // undefined
 * sourceForViolation('img-src', 'https://cdn.example/a.png', 'https://shop.example/'); // { source: 'https://cdn.example', url }
 */
export const sourceForViolation = (directive: string, blockedUri: string, documentUri: string): Candidate | undefined => {
  const keyword = KEYWORD_REPORTS.get(blockedUri);
  if (keyword) return keyword.fits.has(directive) ? { source: keyword.keyword } : undefined;
  const url = parseUrl(blockedUri == 'data' || blockedUri == 'blob' ? `${blockedUri}:` : blockedUri);
  if (!url) return undefined;
  // Without a usable page URL, 'self' cannot be judged: an opaque origin matches no other.
  const origin = parseUrl(documentUri) ?? new URL('about:blank');
  const source = sourceForUrl(url, origin);
  return source === undefined ? undefined : { source, url };
};
