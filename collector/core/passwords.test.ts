import { expect, test } from 'vitest';
import { decoyPasswordHash, hashPassword, newPassword, verifyPassword } from './passwords';
import { hashSessionToken, newSession, SESSION_TOKEN, SESSION_TTL_MS } from './sessions';
import { EMAIL, normalizeEmail, userMaySee } from './users';

test('a password hash is scrypt with its parameters and a salt; it verifies its password only', async () => {
  const hash = await hashPassword('correct horse');
  expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  expect(hash).not.toContain('correct');
  expect(await hashPassword('correct horse')).not.toBe(hash);
  expect(await verifyPassword('correct horse', hash)).toBe(true);
  expect(await verifyPassword('correct horsf', hash)).toBe(false);
  expect(await verifyPassword('', hash)).toBe(false);
}, 30_000);

test('a malformed or hostile stored hash matches nothing and runs no other cost', async () => {
  const hash = await hashPassword('pw');
  for (const stored of ['', 'plain', hash.replace('32768', '3'), hash.replace('32768', '1073741824'), hash.slice(0, -1)]) {
    expect(await verifyPassword('pw', stored)).toBe(false);
  }
  expect(await verifyPassword('pw', await decoyPasswordHash())).toBe(false);
}, 30_000);

test('generated passwords and session tokens are long and random; a session lasts its TTL', () => {
  expect(newPassword()).toMatch(/^[\w-]{20}$/);
  expect(newPassword()).not.toBe(newPassword());
  const session = newSession(1000);
  expect(session.token).toMatch(SESSION_TOKEN);
  expect(session.tokenHash).toBe(hashSessionToken(session.token));
  expect(session.tokenHash).not.toContain(session.token);
  expect(session.expiresAt).toBe(1000 + SESSION_TTL_MS);
});

test('emails are normalised and checked; a user sees every site or the ones named', () => {
  expect(normalizeEmail(' Ann@Shop.Example ')).toBe('ann@shop.example');
  expect(EMAIL.test('ann@shop.example')).toBe(true);
  for (const bad of ['ann', 'a@b@c', 'a b@c', '@c', 'a@', 'a\u0000@c']) expect(EMAIL.test(bad)).toBe(false);
  expect(userMaySee({ site_keys: undefined }, 'x')).toBe(true);
  expect(userMaySee({ site_keys: ['a'] }, 'a')).toBe(true);
  expect(userMaySee({ site_keys: ['a'] }, 'b')).toBe(false);
  expect(userMaySee({ site_keys: [] }, 'a')).toBe(false);
});
