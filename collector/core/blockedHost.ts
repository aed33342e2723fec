/**
 * What CSP reports in `blocked-uri` instead of a URL: CSP3's violation resources (§2.4.1: "inline",
 * "eval", "wasm-eval", "trusted-types-policy", "trusted-types-sink"), and what CSP2-era browsers
 * sent: "self" (Firefox, for inline script and style). A Set: looked up by value, never by property.
 */
const KEYWORDS: ReadonlySet<string> = /* @__PURE__ */ new Set(['inline', 'eval', 'wasm-eval', 'trusted-types-policy', 'trusted-types-sink', 'self']);

/** CSP2-era Chromium reported a `data:` or `blob:` resource by its scheme alone ("data", "blob"). */
const SCHEME_WORDS: ReadonlySet<string> = /* @__PURE__ */ new Set(['data', 'blob', 'filesystem', 'mediastream']);

/**
 * What a blocked URI is: `url` (a network resource, grouped by its host and port), `keyword` (a
 * violation without a resource: inline code, eval...), `scheme` (a resource without a host:
 * `data:`, `blob:`...), `empty` (CSP2's "no URL": inline or eval, which one the report does not
 * say), or `other` (not a URL a browser would send).
 */
export type BlockedKind = 'url' | 'keyword' | 'scheme' | 'empty' | 'other';

const parseUrl = (text: string) => {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
};

/**
 * Classifies a blocked URI and names what a CSP summary groups it by besides the directive: the
 * URL's host (with a non-default port), the keyword, or the scheme. Keywords are recognised in
 * any case and with CSP's quotes (`'self'`), so they are never taken for host names; a URL whose
 * host happens to be `eval` stays a URL. Keywords are kept, not refused: they are real violations.
 *
 * @example
 * classifyBlockedUri('https://cdn.example.net:8443/x.png'); // { kind: 'url', host: 'cdn.example.net:8443' }
 * classifyBlockedUri('eval');                                // { kind: 'keyword', host: 'eval' }
 * classifyBlockedUri('data:image/png;base64,AA');            // { kind: 'scheme', host: 'data' }
 * classifyBlockedUri('');                                    // { kind: 'empty', host: '' }
 */
export const classifyBlockedUri = (blockedUri: string | undefined): { kind: BlockedKind; host: string } => {
  const text = (blockedUri ?? '').trim();
  if (!text) return { kind: 'empty', host: '' };
  const word = text.replace(/^'(.*)'$/s, '$1').toLowerCase();
  if (KEYWORDS.has(word)) return { kind: 'keyword', host: word };
  if (SCHEME_WORDS.has(word)) return { kind: 'scheme', host: word };
  const url = parseUrl(text);
  if (url?.host) return { kind: 'url', host: url.host };
  if (url) return { kind: 'scheme', host: url.protocol.replace(/:$/, '') };
  return { kind: 'other', host: text.replace(/:.*$/s, '').slice(0, 64) };
};

/**
 * What a CSP summary groups by besides the directive (classifyBlockedUri's `host`).
 *
 * @example
 * blockedHostOf('https://cdn.example.net/x.png'); // 'cdn.example.net'
 * blockedHostOf('inline');                        // 'inline'
 */
export const blockedHostOf = (blockedUri: string | undefined) => classifyBlockedUri(blockedUri).host;
