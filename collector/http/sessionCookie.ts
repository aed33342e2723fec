import { deleteCookie, getCookie, setCookie, type H3Event } from 'h3';
import { SESSION_COOKIE, SESSION_TTL_MS } from '../core/sessions';

/**
 * Whether the session cookie is marked `Secure`: when this request came over HTTPS, or the
 * collector's public URL is https (behind a TLS-terminating proxy the request itself is http).
 */
const secure = (event: H3Event, appUrl: string) => event.url.protocol == 'https:' || appUrl.startsWith('https:');

/**
 * Sets `sitebeacon_session` (docs/access.md, "Dashboard sessions"): HttpOnly (no script reads it), SameSite=Strict
 * (no other site's page sends it), Path=/, Secure over HTTPS, for the session's lifetime.
 *
 * @example
 * setSessionCookie(event, token, 'https://app.example');
 */
export const setSessionCookie = (event: H3Event, token: string, appUrl: string) =>
  setCookie(event, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: secure(event, appUrl),
    maxAge: SESSION_TTL_MS / 1000,
  });

/**
 * Clears the cookie (sign-out).
 *
 * @example
 * clearSessionCookie(event, 'https://app.example');
 */
export const clearSessionCookie = (event: H3Event, appUrl: string) =>
  deleteCookie(event, SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', path: '/', secure: secure(event, appUrl) });

/**
 * The session token the request's cookie carries, if any.
 *
 * @example
 * const token = sessionToken(event);
 */
export const sessionToken = (event: H3Event) => getCookie(event, SESSION_COOKIE) || undefined;
