import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createCollector } from '../app';
import { verifyPassword } from '../core/passwords';
import { runCli } from '../testing/runCli';
import type { Store } from '../store/contract';
import { createSqliteStore } from '../store/sqlite';

// Each sign-in and each generated password runs scrypt: generous time on a shared machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 30_000 });

let dir: string;
let db: string;
let stores: Store[];
/** Two collectors on one SQLite file, as two `serve` processes on one database would be. */
let collectors: ReturnType<typeof createCollector>[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-users-'));
  db = join(dir, 'sitebeacon.db');
  stores = [createSqliteStore({ file: db }), createSqliteStore({ file: db })];
  collectors = stores.map((store) =>
    createCollector({
      store,
      beaconFile: fileURLToPath(new URL('../../dist/beacon.min.js', import.meta.url)),
      links: { appUrl: () => 'http://collector.test', ingestUrl: () => undefined },
      rateLimits: { perIp: 0, perSite: 0 },
      logError: (error) => {
        throw error;
      },
    }),
  );
});
afterEach(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (argv: string[], stdin?: string) => runCli([...argv, '--db', db], stdin === undefined ? {} : { stdin: async () => stdin });
const addUser = async (email: string) => (JSON.parse((await cli(['user', 'add', '--email', email, '--json'])).out) as { password: string }).password;
const signIn = async (at: number, email: string, password: string) => {
  const response = await collectors[at]!.fetch(
    new Request('http://collector.test/api/v1/session', {
      method: 'POST',
      body: JSON.stringify({ email, password }),
      headers: { 'content-type': 'application/json', origin: 'http://collector.test' },
    }),
  );
  return { status: response.status, cookie: response.headers.get('set-cookie')?.split(';')[0] };
};
/** The status of `GET /api/v1/session` with the cookie at one collector: 200 signed in, 401 not. */
const whoAmI = async (at: number, cookie: string) =>
  (await collectors[at]!.fetch(new Request('http://collector.test/api/v1/session', { headers: { cookie } }))).status;

test('user sign-out EMAIL ends every session of the user at every collector, and only theirs; the password still works', async () => {
  const password = await addUser('ann@shop.example');
  const other = await addUser('bob@shop.example');
  const sessions = [(await signIn(0, 'ann@shop.example', password)).cookie!, (await signIn(1, 'ann@shop.example', password)).cookie!];
  const bob = (await signIn(0, 'bob@shop.example', other)).cookie!;
  for (const cookie of sessions) for (const at of [0, 1]) expect(await whoAmI(at, cookie)).toBe(200);

  const { code, out } = await cli(['user', 'sign-out', 'Ann@Shop.Example', '--json']);
  expect(code).toBe(0);
  expect(JSON.parse(out)).toEqual({ email: 'ann@shop.example', sessions_ended: 2 });
  for (const cookie of sessions) for (const at of [0, 1]) expect(await whoAmI(at, cookie)).toBe(401);
  expect(await whoAmI(1, bob)).toBe(200);
  expect((await signIn(1, 'ann@shop.example', password)).status).toBe(204);
  expect((await cli(['user', 'sign-out', 'ann@shop.example'])).out).toBe('Signed ann@shop.example out everywhere: 1 session(s) ended.');
});

test('user reset-password EMAIL prints a new password once: the old one and every session are refused, the sites kept', async () => {
  const site = JSON.parse((await cli(['site', 'add', '--origin', 'https://shop.example', '--json'])).out) as { site_key: string };
  const added = JSON.parse((await cli(['user', 'add', '--email', 'ann@shop.example', '--site', site.site_key, '--json'])).out) as { password: string };
  const cookie = (await signIn(0, 'ann@shop.example', added.password)).cookie!;

  const { code, out } = await cli(['user', 'reset-password', 'ann@shop.example', '--json']);
  expect(code).toBe(0);
  const reset = JSON.parse(out) as { email: string; password: string };
  expect(reset).toEqual({ email: 'ann@shop.example', password: expect.stringMatching(/^[\w-]{20}$/) });
  expect(reset.password).not.toBe(added.password);
  for (const at of [0, 1]) expect(await whoAmI(at, cookie)).toBe(401);
  expect((await signIn(1, 'ann@shop.example', added.password)).status).toBe(401);
  const again = await signIn(1, 'ann@shop.example', reset.password);
  expect(again.status).toBe(204);
  const me = await collectors[0]!.fetch(new Request('http://collector.test/api/v1/session', { headers: { cookie: again.cookie! } }));
  expect(await me.json()).toEqual({ email: 'ann@shop.example', site_keys: [site.site_key] });

  // Without --json the password is printed once, with the same words as user add.
  const text = await cli(['user', 'reset-password', 'ann@shop.example']);
  expect(text.out).toMatch(/^New password for ann@shop\.example; every session of theirs has ended\.\n\n {2}password: [\w-]{20}\n\nIt is shown only this once/);
});

test('user reset-password --password-stdin takes the first line of standard input and prints no password', async () => {
  await addUser('ann@shop.example');
  expect((await cli(['user', 'reset-password', 'ann@shop.example', '--password-stdin'], 'short\n')).code).toBe(2);
  const { code, out } = await cli(['user', 'reset-password', 'ann@shop.example', '--password-stdin', '--json'], 'a long enough password\nnext\n');
  expect(code).toBe(0);
  expect(JSON.parse(out)).toEqual({ email: 'ann@shop.example' });
  const user = await stores[0]!.users.findByEmail('ann@shop.example');
  expect(await verifyPassword('a long enough password', user!.password_hash)).toBe(true);
  expect((await signIn(0, 'ann@shop.example', 'a long enough password')).status).toBe(204);
});

test('user remove EMAIL: the user’s cookie is refused at every collector from the next request on, and they cannot sign in', async () => {
  const password = await addUser('ann@shop.example');
  const cookie = (await signIn(0, 'ann@shop.example', password)).cookie!;
  expect(await whoAmI(1, cookie)).toBe(200);

  const { code, out } = await cli(['user', 'remove', 'ann@shop.example', '--json']);
  expect(code).toBe(0);
  expect(JSON.parse(out)).toEqual({ removed: true, email: 'ann@shop.example' });
  for (const at of [0, 1]) expect(await whoAmI(at, cookie)).toBe(401);
  expect((await signIn(1, 'ann@shop.example', password)).status).toBe(401);
  expect(await stores[1]!.users.findByEmail('ann@shop.example')).toBeUndefined();
});

test('an unknown email is an error (exit 1) and a missing or malformed EMAIL a usage error (exit 2), for each command', async () => {
  for (const command of ['remove', 'reset-password', 'sign-out']) {
    const unknown = await cli(['user', command, 'nobody@shop.example']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('sitebeacon: no user has the email nobody@shop.example');
    expect((await cli(['user', command])).code).toBe(2);
    expect((await cli(['user', command, 'not-an-email'])).code).toBe(2);
    expect((await cli(['user', command, 'a@shop.example', 'b@shop.example'])).code).toBe(2);
  }
  expect((await cli(['--help'])).out).toContain('user reset-password EMAIL [--password-stdin]');
});
