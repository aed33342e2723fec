import type { H3Event } from 'h3';
import type { User } from '../core/records';
import { hashSessionToken, SESSION_TOKEN } from '../core/sessions';
import type { Store } from '../store/contract';
import { apiError } from './apiError';
import { sessionToken } from './sessionCookie';

/**
 * The signed-in user of the request's `sitebeacon_session` cookie: 401 `unauthorized` without a
 * cookie, or with one whose session has expired or ended. The lookup is by the token's SHA-256.
 *
 * @example
 * const user = await requireUser(event, store);
 */
export const requireUser = async (event: H3Event, store: Store): Promise<User> => {
  const token = sessionToken(event);
  const user = token && SESSION_TOKEN.test(token) ? await store.sessions.findUser(hashSessionToken(token), Date.now()) : undefined;
  if (!user) throw apiError(401, 'unauthorized', 'sign in (POST /api/v1/session), or send an API key', { 'www-authenticate': 'Bearer' });
  return user;
};

/** Methods that change nothing: a request made with the cookie needs no Origin check for these. */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for writes made with the cookie (docs/access.md, "Dashboard sessions"): the request's `Origin` must
 * be this collector's own: its public URL's origin, or the origin the request was addressed to
 * (the dashboard may be opened as localhost while the public URL says 127.0.0.1; a page of another
 * origin never has both that Host and the host-bound cookie). No Origin is refused: every browser
 * sends one on a cross-origin or non-GET fetch, and non-browser clients use API keys. 403 `csrf`.
 *
 * @example
 * requireSameOrigin(event, 'https://app.example');
 */
export const requireSameOrigin = (event: H3Event, appUrl: string) => {
  const origin = event.req.headers.get('origin');
  const own = [event.url.origin, URL.canParse(appUrl) ? new URL(appUrl).origin : event.url.origin];
  if (!origin || !own.includes(origin)) {
    throw apiError(403, 'csrf', `a write made with the session cookie must come from ${own[1]} (Origin: ${origin ?? 'none'})`);
  }
};
