import type { H3Event } from 'h3';
import { setupUrls, type Links } from '../core/setupUrls';
import { decoyPasswordHash, verifyPassword } from '../core/passwords';
import { ACCOUNT_SIGN_IN_FAILURES, hashSessionToken, newSession, SESSION_TOKEN, SIGN_IN_FAILURES } from '../core/sessions';
import { normalizeEmail } from '../core/users';
import { apiError } from '../http/apiError';
import { clientIp } from '../http/clientIp';
import { defineRoute } from '../http/route';
import { requireSameOrigin } from '../http/sessionAuth';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../http/sessionCookie';
import { signInHashing } from '../http/hashingSlots';
import { createSignInGuard, type SignInOutcome } from '../http/signInGuard';
import { SignInSchema } from '../schemas/session';
import type { Store } from '../store/contract';
import { SessionUserSchema } from '../schemas/answers/serviceAnswers';

/** 429 `rate_limited` with `Retry-After` in whole seconds (at least 1). */
const rateLimited = (waitMs: number, why: string) => {
  const seconds = String(Math.max(1, Math.ceil(waitMs / 1000)));
  return apiError(429, 'rate_limited', `${why}; retry after ${seconds} s`, { 'retry-after': seconds });
};

/**
 * Sign-in and sign-out of the dashboard (docs/access.md, "Dashboard sessions"): `POST /api/v1/session` sets the
 * `sitebeacon_session` cookie, `DELETE` ends the session, `GET` says who is signed in.
 */
export const sessionRoutes = ({ store, links, trustProxy }: { store: Store; links: Links; trustProxy: boolean }) => {
  const guard = createSignInGuard();
  const appUrl = () => setupUrls(links).app_url;
  // A sign-in form of another site could sign a visitor into an account of the attacker's
  // (login CSRF): an Origin, when a browser sends one, must be this collector's.
  const refuseForeignOrigin = (event: H3Event) => {
    if (event.req.headers.has('origin')) requireSameOrigin(event, appUrl());
  };
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/session',
      tag: 'Dashboard',
      summary: 'Sign in: sets the sitebeacon_session cookie (HttpOnly, SameSite=Strict, Secure over HTTPS)',
      auth: 'none',
      metric: 'sign_in',
      body: { schema: SignInSchema },
      responses: {
        204: 'Signed in; the cookie is set',
        401: 'invalid_credentials: the same answer whether the email exists or not',
        403: 'csrf: a browser Origin other than this collector',
        429:
          `rate_limited, with Retry-After: ${SIGN_IN_FAILURES.max} failed sign-ins in a minute from this address; ` +
          `${ACCOUNT_SIGN_IN_FAILURES.max} for this email from all addresses, when this address has failed for it too; ` +
          'or too many sign-ins being checked at once',
      },
      async handle({ event, body }) {
        refuseForeignOrigin(event);
        const email = normalizeEmail(body.email);
        // The attempt takes its place in the limits now, before any hashing (http/signInGuard.ts).
        const attempt = guard.attempt(clientIp(event, trustProxy), email);
        if (attempt.retryAfterMs > 0) throw rateLimited(attempt.retryAfterMs, 'too many failed sign-ins');
        let outcome: SignInOutcome = 'not-checked';
        try {
          const user = await store.users.findByEmail(email);
          // Refused at once, not queued: a flood of sign-ins must not take the cores ingest needs.
          const release = signInHashing.take();
          if (!release) throw rateLimited(1000, 'too many sign-ins at once');
          let valid: boolean;
          try {
            // An unknown email is checked against a decoy hash: the answer and its time are the same.
            valid = await verifyPassword(body.password, user?.password_hash ?? (await decoyPasswordHash()));
          } finally {
            release();
          }
          outcome = user && valid ? 'signed-in' : 'failed';
          if (!user || !valid) throw apiError(401, 'invalid_credentials', 'the email or the password is not right');
          const session = newSession(Date.now());
          // Not created when the user was removed or given a new password while this was hashed.
          const created = await store.sessions.create({
            token_hash: session.tokenHash,
            user_id: user.id,
            password_hash: user.password_hash,
            expires_at: session.expiresAt,
          });
          if (!created) throw apiError(401, 'invalid_credentials', 'the email or the password is not right');
          setSessionCookie(event, session.token, appUrl());
        } finally {
          attempt.end(outcome);
        }
        event.res.status = 204;
        return null;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/session',
      tag: 'Dashboard',
      summary: 'Who is signed in: email, and the sites the user is limited to (null: every site)',
      auth: 'user',
      responses: { 200: { description: 'The signed-in user', schema: SessionUserSchema } },
      handle: ({ event, user }) => {
        event.res.headers.set('cache-control', 'no-store');
        return { email: user!.email, site_keys: user!.site_keys ?? null };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/session',
      tag: 'Dashboard',
      summary: 'Sign out: ends the session and clears the cookie',
      auth: 'none',
      responses: { 204: 'Signed out', 403: 'csrf: made with the cookie from another Origin' },
      async handle({ event }) {
        const token = sessionToken(event);
        if (token) {
          requireSameOrigin(event, appUrl());
          if (SESSION_TOKEN.test(token)) await store.sessions.delete(hashSessionToken(token));
        }
        clearSessionCookie(event, appUrl());
        event.res.status = 204;
        return null;
      },
    }),
  ];
};
