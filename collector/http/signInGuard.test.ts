import { expect, test } from 'vitest';
import { ACCOUNT_SIGN_IN_FAILURES, SIGN_IN_FAILURES } from '../core/sessions';
import { createSignInGuard } from './signInGuard';

test('attempts started at once from one client: the limit is admitted, the rest refused before any ends', () => {
  const guard = createSignInGuard({ now: () => 0 });
  const attempts = Array.from({ length: 60 }, () => guard.attempt('203.0.113.9', 'ann@shop.example'));
  const admitted = attempts.filter((attempt) => attempt.retryAfterMs == 0);
  expect(admitted).toHaveLength(SIGN_IN_FAILURES.max);
  for (const refused of attempts.filter((attempt) => attempt.retryAfterMs > 0)) expect(refused.retryAfterMs).toBe(60_000);
  // Signed in: the attempt is given back.
  admitted[0]!.end('signed-in');
  expect(guard.attempt('203.0.113.9', 'ann@shop.example').retryAfterMs).toBe(0);
});

test('a client that has not failed for an email is heard while other clients are refused for it', () => {
  let time = 0;
  const guard = createSignInGuard({ now: () => time });
  const email = 'ann@shop.example';
  // One attacker: its own limit stops it, and the victim elsewhere is not refused.
  for (let i = 0; i < SIGN_IN_FAILURES.max; i++) guard.attempt('attacker', email).end('failed');
  expect(guard.attempt('attacker', email).retryAfterMs).toBeGreaterThan(0);
  const first = guard.attempt('victim', email);
  expect(first.retryAfterMs).toBe(0);
  first.end('signed-in');
  // Many attackers, past the email's limit: each address that failed is refused for it ...
  const addresses = Array.from({ length: ACCOUNT_SIGN_IN_FAILURES.max }, (_, i) => `bot-${i}`);
  for (const address of addresses) guard.attempt(address, email).end('failed');
  expect(guard.attempt('bot-0', email).retryAfterMs).toBeGreaterThan(0);
  // ... even though under its own limit, and it may still try another email.
  const elsewhere = guard.attempt('bot-0', 'bob@shop.example');
  expect(elsewhere.retryAfterMs).toBe(0);
  elsewhere.end('failed');
  // A new address gets its one guess; the victim's client, which never failed, always gets in.
  const fresh = guard.attempt('bot-new', email);
  expect(fresh.retryAfterMs).toBe(0);
  fresh.end('failed');
  expect(guard.attempt('bot-new', email).retryAfterMs).toBeGreaterThan(0);
  const victim = guard.attempt('victim', email);
  expect(victim.retryAfterMs).toBe(0);
  victim.end('signed-in');
  // A minute later everything has aged out.
  time = ACCOUNT_SIGN_IN_FAILURES.windowMs + 1;
  expect(guard.attempt('bot-0', email).retryAfterMs).toBe(0);
});

test('an attempt never checked (refused for load, or failed to read the store) is given back', () => {
  const guard = createSignInGuard({ now: () => 0 });
  for (let i = 0; i < 3 * SIGN_IN_FAILURES.max; i++) {
    const attempt = guard.attempt('ip', 'ann@shop.example');
    expect(attempt.retryAfterMs).toBe(0);
    attempt.end('not-checked');
  }
});
