/**
 * Hosts that serve others' libraries, not the site's own code: a frame there is no bug of the
 * site's (docs/source-maps.md, "in_app").
 */
const LIBRARY_HOSTS = new Set([
  'cdn.jsdelivr.net',
  'unpkg.com',
  'cdnjs.cloudflare.com',
  'code.jquery.com',
  'ajax.googleapis.com',
  'www.googletagmanager.com',
  'www.google-analytics.com',
  'connect.facebook.net',
  'static.cloudflareinsights.com',
  'js.stripe.com',
]);
/** Schemes of the page's own code; anything else (extensions, an automation tool's scripts) is not the site's. */
const PAGE_SCHEMES = new Set(['http:', 'https:', 'blob:', 'data:', 'file:']);

const isLibraryPath = (path: string) => path.startsWith('node_modules/') || path.includes('/node_modules/') || path.startsWith('webpack/runtime');

const schemeOf = (url: string) => {
  const colon = url.indexOf(':');
  return colon > 0 && /^[a-z][a-z0-9+.-]*$/i.test(url.slice(0, colon)) ? `${url.slice(0, colon).toLowerCase()}:` : undefined;
};

/** The host of an http(s) URL, by string: `new URL` per frame costs more than the rest of mapping it. */
const hostOf = (url: string) => {
  const authorityStart = url.indexOf('//') + 2;
  let end = authorityStart;
  while (end < url.length && !'/?#'.includes(url[end]!)) end++;
  const authority = url.slice(authorityStart, end);
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  const port = host.startsWith('[') ? -1 : host.indexOf(':');
  return (port < 0 ? host : host.slice(0, port)).toLowerCase();
};

/**
 * Whether a frame is the site's own code: it has a file; the file's scheme is a page's (http,
 * https, blob, data, file; not `chrome-extension:` and the like); its host is no known library CDN;
 * neither the file nor its original source is under `node_modules`; and the map does not list the
 * source in its `ignoreList` (`ignored`).
 *
 * @example
 * isInApp('https://shop.example/app.min.js', 'src/cart.ts'); // true
 * isInApp('https://shop.example/app.min.js', '../node_modules/react-dom/cjs/react-dom.js'); // false
 * isInApp(null); // false
 */
export const isInApp = (file: string | null, originalFile?: string | null, ignored = false): boolean => {
  if (!file || ignored) return false;
  const scheme = schemeOf(file);
  if (scheme !== undefined && !PAGE_SCHEMES.has(scheme)) return false;
  if (scheme == 'http:' || scheme == 'https:') {
    if (LIBRARY_HOSTS.has(hostOf(file))) return false;
  }
  if (isLibraryPath(file)) return false;
  return !(originalFile && isLibraryPath(originalFile.replace(/^(?:\.{1,2}\/)+/, '')));
};
