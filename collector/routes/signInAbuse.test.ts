import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { decoyPasswordHash } from '../core/passwords';
import { ACCOUNT_SIGN_IN_FAILURES, SIGN_IN_FAILURES } from '../core/sessions';
import { SIGN_IN_HASHES_AT_ONCE, signInHashing } from '../http/hashingSlots';
import { createTestCollector } from '../testing/testCollector';

// Sign-in under abuse (docs/access.md, "Dashboard sessions"): guesses sent at once, floods from many addresses, and the
// real user signing in from elsewhere meanwhile. Each checked password runs scrypt (seconds on a loaded machine): 120 s.
describe('sign-in under abuse', { timeout: 120_000 }, () => {
  let collector: ReturnType<typeof createTestCollector>;
  const signIn = (email: string, password: string, ip: string) =>
    collector.request('/api/v1/session', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    });
  /** Each answer's status, and its error message for a 429 (which limit refused it). */
  const outcomes = (responses: Response[]) =>
    Promise.all(
      responses.map(async (response) => {
        const body = response.status == 204 ? undefined : ((await response.json()) as { error: { code: string; message: string } });
        if (response.status == 429) {
          expect(body!.error.code).toBe('rate_limited');
          expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        }
        return { status: response.status, message: body?.error.message ?? '' };
      }),
    );

  beforeEach(async () => {
    collector = createTestCollector({ trustProxy: true });
    await collector.addUser('ann@shop.example', 'ann-password-1');
    await decoyPasswordHash(); // made once per process: not part of any request here
  }, 30_000);
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    // Every hashing slot was given back, whatever the answers were.
    expect(signInHashing.taken()).toBe(0);
    await collector.close();
  });

  test('60 guesses at once for one account from one client: past the limit they are refused before hashing', async () => {
    const started = performance.now();
    const guesses = Array.from({ length: 60 }, (_, i) =>
      signIn('ann@shop.example', `wrong-${i}`, '203.0.113.9').then((response) => ({ response, ms: performance.now() - started })),
    );
    const answered = await Promise.all(guesses);
    const results = await outcomes(answered.map(({ response }) => response));
    const refusedByLimit = results.filter((result) => result.message.startsWith('too many failed sign-ins'));
    const hashed = results.filter((result) => result.status == 401);
    expect(refusedByLimit).toHaveLength(60 - SIGN_IN_FAILURES.max);
    expect(hashed.length).toBeGreaterThan(0);
    expect(hashed.length).toBeLessThanOrEqual(SIGN_IN_FAILURES.max);
    // The rest of the admitted ones found the hashing slots taken: refused too, never checked.
    expect(results.filter((result) => result.status == 429)).toHaveLength(60 - hashed.length);
    // Refusals are answered without waiting for any hash: before the slowest 401.
    const slowest401 = Math.max(...answered.filter(({ response }) => response.status == 401).map(({ ms }) => ms));
    const refusedTimes = answered.filter(({ response }) => response.status == 429).map(({ ms }) => ms);
    expect(Math.max(...refusedTimes)).toBeLessThan(slowest401);
  });

  test('sign-ins at once from many clients: at most SIGN_IN_HASHES_AT_ONCE are hashed, the others refused at once', async () => {
    const answered = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(`user${i}@shop.example`, 'a-wrong-password', `198.51.100.${i}`)));
    const results = await outcomes(answered);
    const hashed = results.filter((result) => result.status == 401);
    expect(hashed.length).toBeGreaterThan(0);
    expect(hashed.length).toBeLessThanOrEqual(SIGN_IN_HASHES_AT_ONCE);
    const busy = results.filter((result) => result.status == 429);
    expect(busy).toHaveLength(40 - hashed.length);
    for (const refused of busy) expect(refused.message).toMatch(/^too many sign-ins at once/);
    // Refused for load, not for guessing: those clients may try again at once.
    expect((await signIn('user39@shop.example', 'a-wrong-password', '198.51.100.39')).status).toBe(401);
  });

  test('the real user signs in from another client while one client guesses at their account', async () => {
    for (let i = 0; i < SIGN_IN_FAILURES.max; i++) expect((await signIn('ann@shop.example', `wrong-${i}`, '203.0.113.9')).status).toBe(401);
    // The attacker keeps sending, at once; the user signs in meanwhile from elsewhere.
    const attack = Array.from({ length: 30 }, (_, i) => signIn('ann@shop.example', `more-${i}`, '203.0.113.9'));
    const own = signIn('ann@shop.example', 'ann-password-1', '192.0.2.44');
    expect((await own).status).toBe(204);
    expect((await Promise.all(attack)).map((response) => response.status)).toEqual(Array(30).fill(429));
    // ... and again with the right password from a client that has not failed.
    expect((await signIn('ann@shop.example', 'ann-password-1', '192.0.2.45')).status).toBe(204);
  });

  test('guesses from many clients past the account limit refuse those clients for it, never the real user', async () => {
    const bots = Array.from({ length: ACCOUNT_SIGN_IN_FAILURES.max }, (_, i) => `10.1.0.${i}`);
    // As many at a time as may be hashed at once: each is checked, none refused for load.
    for (let i = 0; i < bots.length; i += SIGN_IN_HASHES_AT_ONCE) {
      const batch = bots.slice(i, i + SIGN_IN_HASHES_AT_ONCE);
      const statuses = (await Promise.all(batch.map((bot) => signIn('ann@shop.example', `wrong-${bot}`, bot)))).map((response) => response.status);
      expect(statuses).toEqual(batch.map(() => 401));
    }
    // A client that has failed for the account is refused for it, though under its own limit ...
    const again = await signIn('ann@shop.example', 'ann-password-1', bots[0]!);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    // ... while a client that has not is heard: the user's own, right password and all.
    expect((await signIn('ann@shop.example', 'ann-password-1', '192.0.2.44')).status).toBe(204);
  });
});
