import { urlMatchesExpression } from './urlMatchesExpression';

/** Schemes a URL names without a host: allowed by a scheme-source (`data:`, `blob:`...). */
const HOSTLESS_SCHEMES: ReadonlySet<string> = /* @__PURE__ */ new Set(['data', 'blob', 'filesystem', 'mediastream']);
const NETWORK_SCHEMES: ReadonlySet<string> = /* @__PURE__ */ new Set(['http', 'https', 'ws', 'wss']);
/** A DNS name that host-part can express (host-char = ALPHA / DIGIT / "-"). */
const HOST_NAME = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;

/**
 * The narrowest source expression that allows `url` on a page whose origin is `origin`: `'self'`
 * for its own origin (and its secure upgrades: `'self'` matching, #match-url-to-source-expression), the URL's origin as a host-source (`https://cdn.example:8443`), or a
 * scheme-source for `data:`, `blob:`, `filesystem:` and `mediastream:`. Undefined when no source
 * expression can name it (other schemes, IPv6 literals, host names outside the host-char grammar).
 * The answer is checked with the matching algorithm itself, so it always matches `url`.
 *
 * @example
 * sourceForUrl(new URL('https://cdn.example/x.png?v=2'), new URL('https://shop.example/')); // 'https://cdn.example'
 * sourceForUrl(new URL('https://shop.example/app.js'), new URL('https://shop.example/'));   // "'self'"
 * sourceForUrl(new URL('data:image/png;base64,AA'), new URL('https://shop.example/'));      // 'data:'
 */
export const sourceForUrl = (url: URL, origin: URL): string | undefined => {
  const scheme = url.protocol.slice(0, -1);
  let source: string | undefined;
  if (HOSTLESS_SCHEMES.has(scheme)) source = `${scheme}:`;
  else if (!NETWORK_SCHEMES.has(scheme) || !HOST_NAME.test(url.hostname)) return undefined;
  else if (urlMatchesExpression(url, "'self'", origin)) source = "'self'";
  else source = `${scheme}://${url.hostname}${url.port ? `:${url.port}` : ''}`;
  return urlMatchesExpression(url, source, origin) ? source : undefined;
};
