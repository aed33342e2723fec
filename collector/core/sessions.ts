import { randomBytes } from 'node:crypto';
import { hashApiKey } from './keys';

/** The dashboard's session cookie (docs/access.md, "Dashboard sessions"). */
export const SESSION_COOKIE = 'sitebeacon_session';

/** A session lasts 7 days from sign-in; signing out ends it at once. */
export const SESSION_TTL_MS = 7 * 86_400_000;

/**
 * Failed sign-ins allowed per client IP within one minute, whatever the emails tried; the next
 * attempt from that client is answered 429 until the oldest failure is a minute old (docs/access.md,
 * "Dashboard sessions"). An attempt counts from the moment it starts.
 */
export const SIGN_IN_FAILURES = { max: 10, windowMs: 60_000 } as const;

/**
 * Failed sign-ins for one email, from all clients together, within one minute, past which the
 * clients that have themselves failed for that email are refused (docs/access.md, "Dashboard sessions"). A client
 * that has not is still heard: knowing the email must not let anyone keep its user out. One client
 * fails at most SIGN_IN_FAILURES.max times a minute, so only several clients at once reach this:
 * it slows a distributed attack (each further address gets one guess a minute) and never a person.
 */
export const ACCOUNT_SIGN_IN_FAILURES = { max: 30, windowMs: 60_000 } as const;

/**
 * A new session token: 256 random bits, base64url. Only its SHA-256 is stored (as API keys are):
 * a leaked database does not sign anyone in.
 *
 * @example
 * const { token, tokenHash, expiresAt } = newSession(Date.now());
 */
export const newSession = (now: number) => {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashSessionToken(token), expiresAt: now + SESSION_TTL_MS };
};

/**
 * What is stored of a session token, and what it is looked up by.
 *
 * @example
 * hashSessionToken('…') // 64 hex characters
 */
export const hashSessionToken = (token: string) => hashApiKey(token);

/** What a session token looks like: anything else in the cookie is not looked up. */
export const SESSION_TOKEN = /^[\w-]{43}$/;
