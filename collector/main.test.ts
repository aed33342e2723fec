import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runCli } from './testing/runCli';
import { EARLY_STUB } from '../beacon/lib/earlyStub';
import Database from 'better-sqlite3';
import { hashApiKey } from './core/keys';
import { earlyStubSource } from './core/setupUrls';
import { verifyPassword } from './core/passwords';
import { createSqliteStore } from './store/sqlite';
import { seedStore } from './testing/seed';

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-cli-'));
  db = join(dir, 'nested', 'sitebeacon.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli([...argv, '--db', db]);

test('site add --json creates a site with normalised origins and prints its key, snippet (stub first) and CSP sources', async () => {
  const { code, out } = await cli('site', 'add', '--origin', 'https://shop.example/cart', '--origin', 'http://localhost:3000', '--name', 'Shop', '--json');
  expect(code).toBe(0);
  const created = JSON.parse(out) as { site_key: string; allowed_origins: string[]; snippet: string; snippet_without_stub: string; csp_sources: unknown };
  expect(created.site_key).toMatch(/^[0-9a-f]{24}$/);
  expect(created.allowed_origins).toEqual(['https://shop.example', 'http://localhost:3000']);
  const tag = `<script src="http://127.0.0.1:8787/beacon.js" data-site-key="${created.site_key}" data-ingest-origin="http://127.0.0.1:8787" async></script>`;
  expect(created.snippet).toBe(`<script>${EARLY_STUB}</script>\n${tag}`);
  expect(created.snippet_without_stub).toBe(tag);
  expect(created.csp_sources).toEqual({ 'script-src': ['http://127.0.0.1:8787', earlyStubSource()], 'connect-src': ['http://127.0.0.1:8787'] });
  const store = createSqliteStore({ file: db });
  expect(await store.sites.get(created.site_key)).toMatchObject({ name: 'Shop', allowed_origins: created.allowed_origins });
  await store.close();
});

test('site add writes the snippet for --public-url and --ingest-url: the beacon and reports from the ingest host', async () => {
  const { out } = await cli('site', 'add', '--origin', 'https://shop.example', '--public-url', 'https://app.example/', '--ingest-url', 'https://in.example', '--json');
  const created = JSON.parse(out) as { site_key: string; snippet: string };
  expect(created.snippet).toBe(
    `<script>${EARLY_STUB}</script>\n<script src="https://in.example/beacon.js" data-site-key="${created.site_key}" data-ingest-origin="https://in.example" async></script>`,
  );
});

test('site add prints the snippet, each line indented, and the CSP sources with the stub\'s hash', async () => {
  const { code, out } = await cli('site', 'add', '--origin', 'https://shop.example', '--ingest-url', 'https://in.example');
  expect(code).toBe(0);
  expect(out).toContain(`Paste into every page:\n  <script>${EARLY_STUB}</script>\n  <script src="https://in.example/beacon.js"`);
  expect(out).toContain(`  script-src https://in.example ${earlyStubSource()}\n  connect-src https://in.example`);
});

test('snippet --site prints the stub and the script tag with the SRI hash of the built beacon, and the CSP sources with the stub\'s hash; --json the whole setup', async () => {
  const site = JSON.parse((await cli('site', 'add', '--origin', 'https://shop.example', '--json')).out) as { site_key: string };
  const text = await cli('snippet', '--site', site.site_key, '--ingest-url', 'https://in.example');
  expect(text.code).toBe(0);
  expect(text.out).toContain(`  <script>${EARLY_STUB}</script>\n  <script src="https://in.example/beacon.js"`);
  expect(text.out).toMatch(/integrity="sha384-[A-Za-z0-9+/]{64}" crossorigin="anonymous"/);
  expect(text.out).toContain(`  script-src https://in.example ${earlyStubSource()}\n  connect-src https://in.example`);
  const json = await cli('snippet', '--site', site.site_key, '--json');
  const setup = JSON.parse(json.out) as { snippet: string; snippet_without_stub: string; integrity: string; api_base: string; csp_sources: unknown };
  expect(setup.api_base).toBe('http://127.0.0.1:8787/api');
  const tag = `<script src="http://127.0.0.1:8787/beacon.js" data-site-key="${site.site_key}" data-ingest-origin="http://127.0.0.1:8787" integrity="${setup.integrity}" crossorigin="anonymous" async></script>`;
  expect(setup.snippet).toBe(`<script>${EARLY_STUB}</script>\n${tag}`);
  expect(setup.snippet_without_stub).toBe(tag);
  expect(setup.csp_sources).toEqual({ 'script-src': ['http://127.0.0.1:8787', earlyStubSource()], 'connect-src': ['http://127.0.0.1:8787'] });
  expect((await cli('snippet', '--site', 'nope')).code).toBe(1);
  expect((await cli('snippet')).code).toBe(2);
});

test('snippet --no-stub prints the script tag alone, and the CSP sources without the stub\'s hash', async () => {
  const site = JSON.parse((await cli('site', 'add', '--origin', 'https://shop.example', '--json')).out) as { site_key: string };
  const { code, out } = await cli('snippet', '--site', site.site_key, '--no-stub', '--ingest-url', 'https://in.example');
  expect(code).toBe(0);
  expect(out).toMatch(
    new RegExp(`:\\n  <script src="https://in\\.example/beacon\\.js" data-site-key="${site.site_key}" data-ingest-origin="https://in\\.example" integrity="sha384-[A-Za-z0-9+/]{64}" crossorigin="anonymous" async></script>\\n\\n`),
  );
  expect(out).not.toContain(EARLY_STUB);
  expect(out).not.toContain("'sha256-");
  expect(out).toContain('  script-src https://in.example\n  connect-src https://in.example');
});

test('export --kind errors prints what was stored as NDJSON, filtered by --since', async () => {
  const store = createSqliteStore({ file: db });
  const seed = seedStore(store);
  await seed.insertErrors('default', [{ error_type: 'js', error_message: 'old' }], Date.parse('2026-01-01T00:00:00Z'));
  const causes = [{ error_name: 'TypeError', error_message: 'fetch failed', stack: 'at load (app.js:3:9)' }, { error_message: 'inner', aggregate: true }];
  await seed.insertErrors('default', [{ error_type: 'js', error_message: 'new', line: 4, causes }], Date.parse('2026-06-01T00:00:00Z'));
  await store.close();

  const all = await cli('export', '--site', 'default', '--kind', 'errors');
  expect(all.code).toBe(0);
  const lines = all.out.split('\n').map((line) => JSON.parse(line) as { error_message: string; causes?: unknown });
  expect(lines.map((record) => record.error_message)).toEqual(['old', 'new']);
  expect(lines.map((record) => record.causes)).toEqual([undefined, causes]);

  const recent = await cli('export', '--site', 'default', '--kind', 'errors', '--since', '2026-03-01T00:00:00Z');
  expect(JSON.parse(recent.out)).toMatchObject({ error_message: 'new', line: 4, received_at: '2026-06-01T00:00:00.000Z' });
});

test('key create --json prints the key once; only its hash is stored', async () => {
  const site = JSON.parse((await cli('site', 'add', '--origin', 'https://shop.example', '--json')).out) as { site_key: string };
  const { code, out } = await cli('key', 'create', '--site', site.site_key, '--json');
  expect(code).toBe(0);
  const created = JSON.parse(out) as { api_key: string; site_key: string };
  expect(created.api_key).toMatch(/^sbk_[\w-]{32}$/);
  expect(created.site_key).toBe(site.site_key);
  const store = createSqliteStore({ file: db });
  expect(await store.apiKeys.findByHash(hashApiKey(created.api_key))).toMatchObject({ site_key: site.site_key });
  await store.close();
  const raw = new Database(db, { readonly: true });
  expect(JSON.stringify(raw.prepare('SELECT * FROM api_keys').all())).not.toContain(created.api_key);
  raw.close();
  expect((await cli('key', 'create', '--site', 'nope')).code).toBe(1);
});

test.each([
  [['site', 'add'], /at least one --origin/],
  [['site', 'add', '--origin', 'not a url'], /is not a URL/],
  [['site', 'add', '--origin', 'ftp://files.example'], /is not http/],
  [['export', '--kind', 'errors'], /needs --site/],
  [['export', '--site', 'default', '--kind', 'logs'], /needs --kind errors\|csp\|performance/],
  [['export', '--site', 'default', '--kind', 'errors', '--since', 'yesterday'], /not an ISO date/],
  [['serve', '--port', '99999'], /is not a port/],
  [['serve', '--bogus'], /Unknown option/],
  [['action', 'add', '--type', 'ping'], /needs --site/],
  [['action', 'add', '--site', 'default', '--type', 'Bad Type'], /type is a lowercase name/],
  [['action', 'add', '--site', 'default', '--type', 'ping', '--payload', '{nope'], /--payload is not JSON/],
  [['serve', '--tls-cert', 'cert.pem'], /go together/],
  [['serve', '--rate-limit', 'fast'], /not a number of requests per second/],
  [['serve', '--log-level', 'loud'], /not one of info, warn, error, silent/],
  [['serve', '--sync', 'extra'], /--sync extra is not one of normal, full/],
  [['frobnicate'], /unknown command/],
])('%j is a usage error (exit 2) that says what is wrong', async (argv, message) => {
  const { code, err } = await cli(...argv);
  expect(code).toBe(2);
  expect(err).toMatch(message);
  expect(err).toContain('Usage: sitebeacon');
});

test('export for an unknown site fails with exit 1', async () => {
  await cli('migrate');
  const { code, err } = await cli('export', '--site', 'nope', '--kind', 'errors');
  expect(code).toBe(1);
  expect(err).toContain('no site has the key "nope"');
});

test('user add generates a password printed once, stores only its scrypt hash, and limits the user to the sites named', async () => {
  const site = JSON.parse((await cli('site', 'add', '--origin', 'https://shop.example', '--json')).out) as { site_key: string };
  const { code, out } = await cli('user', 'add', '--email', 'Ann@Shop.Example', '--site', site.site_key, '--json');
  expect(code).toBe(0);
  const created = JSON.parse(out) as { email: string; password: string; site_keys: string[] };
  expect(created).toMatchObject({ email: 'ann@shop.example', site_keys: [site.site_key] });
  expect(created.password).toMatch(/^[\w-]{20}$/);
  const store = createSqliteStore({ file: db });
  const user = await store.users.findByEmail('ann@shop.example');
  await store.close();
  expect(user!.password_hash).toMatch(/^scrypt\$/);
  expect(user!.password_hash).not.toContain(created.password);
  expect(await verifyPassword(created.password, user!.password_hash)).toBe(true);

  const again = await cli('user', 'add', '--email', 'ann@shop.example');
  expect(again.code).toBe(1);
  expect(again.err).toContain('exists');
  expect((await cli('user', 'add', '--email', 'x@shop.example', '--site', 'nope')).err).toContain('no site has the key "nope"');
  expect((await cli('user', 'add', '--email', 'not-an-email')).code).toBe(2);
}, 30_000);

test('user add --password-stdin takes the first line of standard input, prints no password, and sees every site without --site', async () => {
  const run = (stdin: string) => runCli(['user', 'add', '--email', 'bob@shop.example', '--password-stdin', '--json', '--db', db], { stdin: async () => stdin });
  expect((await run('short\n')).code).toBe(2);
  const added = await run('a long enough password\nsecond line\n');
  expect(added.code).toBe(0);
  expect(JSON.parse(added.out)).toEqual({ email: 'bob@shop.example', site_keys: null });
  const store = createSqliteStore({ file: db });
  const user = await store.users.findByEmail('bob@shop.example');
  await store.close();
  expect(await verifyPassword('a long enough password', user!.password_hash)).toBe(true);
  expect(user!.site_keys).toBeUndefined();
}, 30_000);
