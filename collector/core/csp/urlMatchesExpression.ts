import { parseSourceExpression } from './parseSourceExpression';

/** Default ports (https://url.spec.whatwg.org/#default-port). */
const DEFAULT_PORTS: ReadonlyMap<string, string> = /* @__PURE__ */ new Map([
  ['http', '80'], ['https', '443'], ['ws', '80'], ['wss', '443'], ['ftp', '21'],
]);
const isDefaultPort = (port: string, scheme: string) => DEFAULT_PORTS.get(scheme) === port;
const schemeOf = (url: URL) => url.protocol.slice(0, -1);
const IPV4 = /^(?:[0-9]{1,3}\.){3}[0-9]{1,3}$/;

/**
 * CSP3 `scheme-part` matching (#match-schemes): A may be upgraded to B, never downgraded.
 *
 * @example
 * schemePartMatches('http', 'https'); // true
 * schemePartMatches('https', 'http'); // false
 */
export const schemePartMatches = (a: string, b: string) => {
  a = a.toLowerCase();
  b = b.toLowerCase();
  return a == b || (a == 'http' && b == 'https') || (a == 'ws' && (b == 'wss' || b == 'http' || b == 'https')) || (a == 'wss' && b == 'https');
};

/** CSP3 `host-part` matching (#match-hosts). */
const hostPartMatches = (a: string, b: string) => {
  a = a.toLowerCase();
  b = b.toLowerCase();
  if (a.startsWith('*')) return b.endsWith(a.slice(1));
  if (a != b) return false;
  // IP literals never match, except 127.0.0.1 (the spec's note: their security properties are suspect).
  return !((IPV4.test(a) && a != '127.0.0.1') || a.startsWith('['));
};

/**
 * CSP3 `port-part` matching (#match-ports); an empty port is the URL's default or absent one.
 * Plus the secure upgrade CSP3 announces (§1.3 "Changes from Level 2", item 3: `http://example.com:80`
 * matches `https://example.com:443`) and Chromium implements, which the algorithm's steps omit.
 */
const portPartMatches = (a: string | undefined, port: string, scheme: string) => {
  if (a === undefined) return port === '' || isDefaultPort(port, scheme);
  if (a == '*' || a == port) return true;
  if (a == '80' && (scheme == 'https' || scheme == 'wss') && (port === '' || port == '443')) return true;
  return port === '' && isDefaultPort(a, scheme);
};

const percentDecode = (piece: string) => {
  try {
    return decodeURIComponent(piece);
  } catch {
    return piece;
  }
};

/** CSP3 `path-part` matching (#match-paths): a path ending in "/" is a prefix, any other is exact. */
const pathPartMatches = (a: string, b: string) => {
  if (!a) return true;
  if (a == '/' && !b) return true;
  const exact = !a.endsWith('/');
  const listA = a.split('/');
  const listB = b.split('/');
  if (listA.length > listB.length) return false;
  if (exact && listA.length != listB.length) return false;
  if (!exact) listA.pop();
  return listA.every((piece, index) => percentDecode(piece) == percentDecode(listB[index]!));
};

/**
 * CSP3 "Does url match expression in origin with redirect count?"
 * (https://w3c.github.io/webappsec-csp/#match-url-to-source-expression). `origin` is the policy's
 * self-origin (the page's URL or origin); after a redirect (`redirectCount` > 0) paths are not compared.
 *
 * @example
 * const page = new URL('https://shop.example/cart');
 * urlMatchesExpression(new URL('https://cdn.example/a.png'), '*.example', page);          // false: "*." needs a subdomain
 * urlMatchesExpression(new URL('https://img.cdn.example/a.png'), '*.cdn.example', page); // true
 * urlMatchesExpression(new URL('wss://shop.example/live'), "'self'", page);              // true
 */
export const urlMatchesExpression = (url: URL, expression: string, origin: URL, redirectCount = 0): boolean => {
  const scheme = schemeOf(url);
  const originScheme = schemeOf(origin);
  if (expression == '*') return scheme == 'http' || scheme == 'https' || scheme == originScheme;
  const parsed = parseSourceExpression(expression);
  if (!parsed) return false;
  if (parsed.kind == 'scheme') return schemePartMatches(parsed.scheme, scheme);
  if (parsed.kind == 'host') {
    if (parsed.scheme !== undefined && !schemePartMatches(parsed.scheme, scheme)) return false;
    if (!url.hostname) return false;
    if (parsed.scheme === undefined && !schemePartMatches(originScheme, scheme)) return false;
    if (!hostPartMatches(parsed.host, url.hostname)) return false;
    if (!portPartMatches(parsed.port, url.port, scheme)) return false;
    if (parsed.path && redirectCount == 0 && !pathPartMatches(parsed.path, url.pathname)) return false;
    return true;
  }
  if (parsed.kind == 'keyword' && parsed.keyword == "'self'") {
    // A blob: or filesystem: URL carries its creator's origin, but browsers (Chromium, Firefox) let
    // only an explicit scheme-source allow it, as CSP3 does for "*": so 'self' needs a host here.
    if (!url.hostname) return false;
    if (origin.origin != 'null' && origin.origin == url.origin) return true;
    const portsAgree =
      url.port == origin.port || ((url.port === '' || isDefaultPort(url.port, scheme)) && (origin.port === '' || isDefaultPort(origin.port, originScheme)));
    return (
      url.hostname == origin.hostname &&
      portsAgree &&
      (scheme == 'https' || scheme == 'wss' || (originScheme == 'http' && (scheme == 'http' || scheme == 'ws')))
    );
  }
  return false;
};

/**
 * CSP3 "Does url match source list in origin with redirect count?" (#match-url-to-source-list): an empty list and a
 * lone `'none'` match nothing; otherwise any matching expression is enough.
 *
 * @example
 * urlMatchesSourceList(new URL('https://cdn.example/a.js'), ["'self'", 'https://cdn.example'], new URL('https://shop.example/')); // true
 * urlMatchesSourceList(new URL('https://cdn.example/a.js'), ["'none'"], new URL('https://shop.example/'));                      // false
 */
export const urlMatchesSourceList = (url: URL, sourceList: readonly string[], origin: URL, redirectCount = 0): boolean => {
  if (sourceList.length == 0) return false;
  if (sourceList.length == 1 && sourceList[0]!.toLowerCase() == "'none'") return false;
  return sourceList.some((expression) => urlMatchesExpression(url, expression, origin, redirectCount));
};
