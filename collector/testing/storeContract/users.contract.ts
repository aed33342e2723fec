import { describe, expect } from 'vitest';
import { hashApiKey } from '../../core/keys';
import type { StoreTest } from './storeTest';

/**
 * Dashboard users and their sessions (store/contract/users.ts), part of the store contract
 * (store.contract.ts), run by describeStoreContract with its fresh store for each test.
 *
 * @example
 * describeUsersContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeUsersContract = (test: StoreTest) =>
  describe('users and sessions', () => {

    test('a user is created once per email, found by it, and put replaces its password hash and sites', async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const ann = await store.users.create({ email: 'ann@shop.example', password_hash: 'scrypt$a', site_keys: [shop] });
      expect(ann).toMatchObject({ email: 'ann@shop.example', password_hash: 'scrypt$a', site_keys: [shop] });
      expect(typeof ann.id).toBe('number');
      expect(Date.parse(ann.created_at)).not.toBeNaN();
      await expect(store.users.create({ email: 'ann@shop.example', password_hash: 'scrypt$b', site_keys: undefined })).rejects.toThrow();
      const every = await store.users.create({ email: 'bob@shop.example', password_hash: 'scrypt$c', site_keys: undefined });
      expect(every.site_keys).toBeUndefined();
      const put = await store.users.put({ email: 'ann@shop.example', password_hash: 'scrypt$d', site_keys: undefined });
      expect(put).toMatchObject({ id: ann.id, password_hash: 'scrypt$d' });
      expect(put.site_keys).toBeUndefined();
      expect(await store.users.findByEmail('ann@shop.example')).toEqual(put);
      expect(await store.users.findByEmail('nobody@shop.example')).toBeUndefined();
      const created = await store.users.put({ email: 'cy@shop.example', password_hash: 'scrypt$e', site_keys: [] });
      expect(created.site_keys).toEqual([]);
    });

    test('a session finds its user by token hash until it expires or is deleted, and the next process sees it', async ({ store, reopen }) => {
      const user = await store.users.create({ email: 'ann@shop.example', password_hash: 'h', site_keys: ['a1', 'b2'] });
      const now = Date.now();
      await store.sessions.create({ token_hash: hashApiKey('t1'), user_id: user.id, expires_at: now + 60_000 });
      await store.sessions.create({ token_hash: hashApiKey('t2'), user_id: user.id, expires_at: now + 120_000 });
      expect(await store.sessions.findUser(hashApiKey('t1'), now)).toEqual(user);
      expect(await (await reopen()).sessions.findUser(hashApiKey('t1'), now)).toEqual(user);
      expect(await store.sessions.findUser(hashApiKey('t1'), now + 60_000)).toBeUndefined();
      expect(await store.sessions.findUser(hashApiKey('nope'), now)).toBeUndefined();
      await store.sessions.delete(hashApiKey('t2'));
      expect(await store.sessions.findUser(hashApiKey('t2'), now)).toBeUndefined();
      await store.sessions.delete(hashApiKey('never'));
    });

    test('a session is created only for a user who exists and, given a password hash, still has it', async ({ store }) => {
      const ann = await store.users.create({ email: 'ann@shop.example', password_hash: 'old', site_keys: undefined });
      const now = Date.now();
      expect(await store.sessions.create({ token_hash: hashApiKey('t1'), user_id: ann.id, password_hash: 'old', expires_at: now + 60_000 })).toBe(true);
      expect(await store.sessions.create({ token_hash: hashApiKey('t2'), user_id: ann.id, password_hash: 'new', expires_at: now + 60_000 })).toBe(false);
      expect(await store.sessions.create({ token_hash: hashApiKey('t3'), user_id: ann.id + 1000, expires_at: now + 60_000 })).toBe(false);
      expect(await store.sessions.findUser(hashApiKey('t1'), now)).toEqual(ann);
      expect(await store.sessions.findUser(hashApiKey('t2'), now)).toBeUndefined();
      expect(await store.sessions.findUser(hashApiKey('t3'), now)).toBeUndefined();
    });

    test('a removed user is found no more and their sessions find no one, at any process; others keep theirs', async ({ store, reopen }) => {
      const ann = await store.users.create({ email: 'ann@shop.example', password_hash: 'h', site_keys: ['a1'] });
      const bob = await store.users.create({ email: 'bob@shop.example', password_hash: 'h', site_keys: undefined });
      const now = Date.now();
      const other = await reopen();
      await store.sessions.create({ token_hash: hashApiKey('ann'), user_id: ann.id, expires_at: now + 60_000 });
      await store.sessions.create({ token_hash: hashApiKey('bob'), user_id: bob.id, expires_at: now + 60_000 });
      expect(await other.sessions.findUser(hashApiKey('ann'), now)).toEqual(ann);
      expect(await other.users.remove('ann@shop.example')).toBe(true);
      expect(await store.users.findByEmail('ann@shop.example')).toBeUndefined();
      expect(await store.sessions.findUser(hashApiKey('ann'), now)).toBeUndefined();
      expect(await store.sessions.findUser(hashApiKey('bob'), now)).toEqual(bob);
      expect(await store.users.remove('ann@shop.example')).toBe(false);
      // The email is free again, for a new user with nothing of the old one's.
      const again = await store.users.create({ email: 'ann@shop.example', password_hash: 'h2', site_keys: undefined });
      expect(await store.sessions.findUser(hashApiKey('ann'), now)).toBeUndefined();
      expect(again.site_keys).toBeUndefined();
    });

    test('setPasswordHash replaces the hash, keeps the sites and ends every session of the user, at any process', async ({ store, reopen }) => {
      const ann = await store.users.create({ email: 'ann@shop.example', password_hash: 'old', site_keys: ['a1'] });
      const bob = await store.users.create({ email: 'bob@shop.example', password_hash: 'h', site_keys: undefined });
      const now = Date.now();
      for (const token of ['a', 'b']) await store.sessions.create({ token_hash: hashApiKey(token), user_id: ann.id, expires_at: now + 60_000 });
      await store.sessions.create({ token_hash: hashApiKey('bob'), user_id: bob.id, expires_at: now + 60_000 });
      const other = await reopen();
      const updated = await other.users.setPasswordHash('ann@shop.example', 'new');
      expect(updated).toEqual({ ...ann, password_hash: 'new' });
      expect(await store.users.findByEmail('ann@shop.example')).toEqual(updated);
      for (const token of ['a', 'b']) expect(await store.sessions.findUser(hashApiKey(token), now)).toBeUndefined();
      expect(await store.sessions.findUser(hashApiKey('bob'), now)).toEqual(bob);
      expect(await store.users.setPasswordHash('nobody@shop.example', 'x')).toBeUndefined();
    });

    test('a sign-in racing a password reset leaves no session made with the old password', async ({ store, reopen }) => {
      const ann = await store.users.create({ email: 'ann@shop.example', password_hash: 'h0', site_keys: undefined });
      const other = await reopen();
      const now = Date.now();
      for (let round = 1; round <= 10; round++) {
        // As a sign-in does: the hash it checked, then the session, while another process resets.
        const checked = (await store.users.findByEmail('ann@shop.example'))!.password_hash;
        const token = hashApiKey(`round ${round}`);
        await Promise.all([
          store.sessions.create({ token_hash: token, user_id: ann.id, password_hash: checked, expires_at: now + 60_000 }),
          other.users.setPasswordHash('ann@shop.example', `h${round}`),
        ]);
        expect(await store.sessions.findUser(token, now)).toBeUndefined();
      }
    });

    test('deleteForUser ends every session of that user only, and counts those that had not expired', async ({ store, reopen }) => {
      const ann = await store.users.create({ email: 'ann@shop.example', password_hash: 'h', site_keys: undefined });
      const bob = await store.users.create({ email: 'bob@shop.example', password_hash: 'h', site_keys: undefined });
      const now = Date.now();
      await store.sessions.create({ token_hash: hashApiKey('a1'), user_id: ann.id, expires_at: now + 60_000 });
      await store.sessions.create({ token_hash: hashApiKey('a2'), user_id: ann.id, expires_at: now + 120_000 });
      await store.sessions.create({ token_hash: hashApiKey('b1'), user_id: bob.id, expires_at: now + 60_000 });
      const other = await reopen();
      expect(await other.sessions.deleteForUser(ann.id)).toBe(2);
      expect(await store.sessions.findUser(hashApiKey('a1'), now)).toBeUndefined();
      expect(await store.sessions.findUser(hashApiKey('a2'), now)).toBeUndefined();
      expect(await store.sessions.findUser(hashApiKey('b1'), now)).toEqual(bob);
      expect(await store.users.findByEmail('ann@shop.example')).toEqual(ann);
      expect(await store.sessions.deleteForUser(ann.id)).toBe(0);
    });
  });
