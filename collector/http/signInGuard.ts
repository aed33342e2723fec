import { ACCOUNT_SIGN_IN_FAILURES, SIGN_IN_FAILURES } from '../core/sessions';
import { createSignInLimiter } from './signInLimiter';

/** How an admitted sign-in ended: a wrong password or email, signed in, or never checked. */
export type SignInOutcome = 'failed' | 'signed-in' | 'not-checked';

/**
 * Who may try to sign in now (docs/access.md, "Dashboard sessions"). The rule, from the two limits of core/sessions.ts:
 *
 * - a client (IP) with SIGN_IN_FAILURES.max failed or running attempts in the window is refused,
 *   whatever email it tries: this is what bounds one client's guesses at one account;
 * - an email with ACCOUNT_SIGN_IN_FAILURES.max failed or running attempts in the window, from all
 *   clients together, refuses the clients that have themselves failed (or are trying) for it in the
 *   window, and only those. A client that has not failed for it is always heard, so someone who
 *   knows only the email cannot keep its user out of their own account from another client.
 *
 * An attempt counts from `attempt()`, before any password is hashed, and the answer is final for
 * it: sent at once, N guesses get at most the limit hashed. Memory is bounded (signInLimiter.ts).
 *
 * @example
 * const guard = createSignInGuard();
 * const attempt = guard.attempt(ip, email);
 * if (attempt.retryAfterMs > 0) refuse(attempt.retryAfterMs);
 * else attempt.end((await verify()) ? 'signed-in' : 'failed');
 */
export const createSignInGuard = ({ now, maxKeys }: { now?: () => number; maxKeys?: number } = {}) => {
  const clients = createSignInLimiter({ ...SIGN_IN_FAILURES, now, maxKeys });
  const accounts = createSignInLimiter({ ...ACCOUNT_SIGN_IN_FAILURES, now, maxKeys });
  // max 1: blocked while the client has any attempt for the email in the window.
  const pairs = createSignInLimiter({ max: 1, windowMs: ACCOUNT_SIGN_IN_FAILURES.windowMs, now, maxKeys });
  return {
    attempt(client: string, email: string) {
      const pair = `${email}\n${client}`;
      const accountWait = Math.min(accounts.blockedFor(email), pairs.blockedFor(pair));
      const retryAfterMs = Math.max(clients.blockedFor(client), accountWait);
      if (retryAfterMs > 0) return { retryAfterMs, end: (_outcome: SignInOutcome) => {} };
      const started = [clients.start(client), accounts.start(email), pairs.start(pair)];
      return {
        retryAfterMs: 0,
        end(outcome: SignInOutcome) {
          for (const one of started) outcome == 'failed' ? one.fail() : one.withdraw();
        },
      };
    },
  };
};
