/**
 * The source-expression grammar of CSP3 §2.3.1 (https://w3c.github.io/webappsec-csp/#grammardef-source-expression).
 * ABNF quoted strings are case-insensitive (RFC 5234 §2.3), so keywords are matched that way.
 */

/** scheme, RFC 3986 §3.1. */
const SCHEME = '[A-Za-z][A-Za-z0-9+.-]*';
/** host-part = "*" / [ "*." ] 1*host-char *( "." 1*host-char ); host-char = ALPHA / DIGIT / "-". */
const HOST = '\\*|(?:\\*\\.)?[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*';
/** port-part = 1*DIGIT / "*". */
const PORT = '[0-9]+|\\*';
/** pchar of RFC 3986 §3.3, without ";" and "," (path-part). */
const PCHAR = "(?:[A-Za-z0-9\\-._~!$&'()*+=:@]|%[0-9A-Fa-f]{2})";
/** path-absolute = "/" [ segment-nz *( "/" segment ) ]. */
const PATH = `/(?:${PCHAR}+(?:/${PCHAR}*)*)?`;

const SCHEME_SOURCE = new RegExp(`^(${SCHEME}):$`);
const HOST_SOURCE = new RegExp(`^(?:(${SCHEME})://)?(${HOST})(?::(${PORT}))?(${PATH})?$`);
const BASE64_VALUE = '[A-Za-z0-9+/\\-_]+={0,2}';
const NONCE_SOURCE = new RegExp(`^'nonce-(${BASE64_VALUE})'$`, 'i');
const HASH_SOURCE = new RegExp(`^'(sha256|sha384|sha512)-(${BASE64_VALUE})'$`, 'i');

/**
 * keyword-source of §2.3.1, plus the keywords later drafts and browsers added
 * ('inline-speculation-rules', 'trusted-types-eval', 'report-sha256/384/512').
 */
export const KEYWORDS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "'self'", "'unsafe-inline'", "'unsafe-eval'", "'strict-dynamic'", "'unsafe-hashes'", "'report-sample'",
  "'unsafe-allow-redirects'", "'wasm-unsafe-eval'", "'inline-speculation-rules'", "'trusted-types-eval'",
  "'report-sha256'", "'report-sha384'", "'report-sha512'",
]);

export type SourceExpression =
  | { kind: 'none' }
  | { kind: 'keyword'; keyword: string }
  | { kind: 'nonce'; value: string }
  | { kind: 'hash'; algorithm: string; value: string }
  | { kind: 'scheme'; scheme: string }
  | { kind: 'host'; scheme?: string; host: string; port?: string; path?: string };

/**
 * Parses one source expression; undefined when the token is not one (so it must never be written
 * into a policy). Keywords, schemes and algorithms come back lowercase; `'none'` is its own kind
 * (§2.3.1: it may only stand alone).
 *
 * @example
 * parseSourceExpression('https://*.example.com:8443/app/'); // { kind: 'host', scheme: 'https', host: '*.example.com', port: '8443', path: '/app/' }
 * parseSourceExpression("'SELF'");                          // { kind: 'keyword', keyword: "'self'" }
 * parseSourceExpression('https://a.example;b');             // undefined
 */
export const parseSourceExpression = (token: string): SourceExpression | undefined => {
  const lower = token.toLowerCase();
  if (lower == "'none'") return { kind: 'none' };
  if (KEYWORDS.has(lower)) return { kind: 'keyword', keyword: lower };
  let match = NONCE_SOURCE.exec(token);
  if (match) return { kind: 'nonce', value: match[1]! };
  match = HASH_SOURCE.exec(token);
  if (match) return { kind: 'hash', algorithm: match[1]!.toLowerCase(), value: match[2]! };
  match = SCHEME_SOURCE.exec(token);
  if (match) return { kind: 'scheme', scheme: match[1]!.toLowerCase() };
  match = HOST_SOURCE.exec(token);
  if (!match) return undefined;
  const [, scheme, host, port, path] = match;
  return {
    kind: 'host',
    host: host!,
    ...(scheme === undefined ? {} : { scheme: scheme.toLowerCase() }),
    ...(port === undefined ? {} : { port }),
    ...(path === undefined ? {} : { path }),
  };
};

/**
 * True when `token` is a source expression of §2.3.1 (or `'none'`).
 *
 * @example
 * isSourceExpression("'nonce-abc123=='"); // true
 * isSourceExpression('"inline"');         // false
 */
export const isSourceExpression = (token: string) => parseSourceExpression(token) !== undefined;
