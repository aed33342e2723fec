import { getRequestURL, type H3Event } from 'h3';

/**
 * The URL the client addressed, as the proxy in front of the collector received it: the scheme of
 * `X-Forwarded-Proto` (its first entry: the client's side of the first proxy) and the host of
 * `X-Forwarded-Host`, else the request's own. Only behind a proxy you run (`--trust-proxy`), which
 * sets them: a TLS-terminating proxy passes plain http, and the browser's `Origin` then says
 * https. Set as `event.url` before any route runs (app.ts), so that the CSRF check's own origin
 * (http/sessionAuth.ts) and the session cookie's `Secure` (http/sessionCookie.ts) are the client's.
 *
 * @example
 * // GET http://127.0.0.1:8801/ with X-Forwarded-Proto: https, X-Forwarded-Host: collect.example
 * forwardedUrl(event).origin; // 'https://collect.example'
 */
export const forwardedUrl = (event: H3Event): URL => getRequestURL(event, { xForwardedHost: true, xForwardedProto: true });
