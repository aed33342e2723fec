import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { main } from '../main';
import { hashApiKey } from '../core/keys';
import { createPostgresStore } from '../store/postgres';
import { POSTGRES_MIGRATIONS } from '../store/postgres/schema';
import { createSqliteStore } from '../store/sqlite';
import { seedStore } from '../testing/seed';
import { usePostgresDatabase, type TestDatabase } from '../testing/testDatabase';
import { databaseLocation, printableLocation, UsageError } from './args';

const database = usePostgresDatabase('cli');
let schema: TestDatabase;
let dir: string;
beforeEach(async () => {
  schema = await database.schema('cli');
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-cli-'));
});
afterEach(async () => {
  await schema.drop();
  rmSync(dir, { recursive: true, force: true });
});

const cli = async (argv: string[], env: Record<string, string> = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line), env });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

describe('where the data is', () => {
  const io = (env: Record<string, string> = {}) => ({ out: () => {}, err: () => {}, env });
  test('--database-url, else --db, else SITEBEACON_DATABASE_URL, else SITEBEACON_DB, else ./data/sitebeacon.db', () => {
    const url = 'postgres://app@db.internal:5432/sitebeacon';
    expect(databaseLocation({ 'database-url': url }, io({ SITEBEACON_DB: '/x.db' }))).toBe(url);
    expect(databaseLocation({ db: '/a.db' }, io({ SITEBEACON_DATABASE_URL: url }))).toBe('/a.db');
    expect(databaseLocation({}, io({ SITEBEACON_DATABASE_URL: 'postgresql://db/x', SITEBEACON_DB: '/x.db' }))).toBe('postgresql://db/x');
    expect(databaseLocation({}, io({ SITEBEACON_DB: '/x.db' }))).toBe('/x.db');
    expect(databaseLocation({}, io())).toMatch(/\/data\/sitebeacon\.db$/);
    expect(() => databaseLocation({ db: '/a.db', 'database-url': url }, io())).toThrow(UsageError);
    expect(() => databaseLocation({ 'database-url': '/a.db' }, io())).toThrow(/must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(() => databaseLocation({}, io({ SITEBEACON_DATABASE_URL: 'mysql://db/x' }))).toThrow(/SITEBEACON_DATABASE_URL must be/);
  });

  test('a URL is printed without its password', () => {
    expect(printableLocation('postgres://app:s3cret@db.internal/sitebeacon')).toBe('postgres://app:***@db.internal/sitebeacon');
    expect(printableLocation('postgres://app@db.internal/sitebeacon')).toBe('postgres://app@db.internal/sitebeacon');
    expect(printableLocation('/data/sitebeacon.db')).toBe('/data/sitebeacon.db');
  });
});

describe('sitebeacon migrate', () => {
  test('on PostgreSQL: applies every version once, then has nothing to do; --json says which', async () => {
    const first = await cli(['migrate', '--database-url', schema.url, '--json']);
    expect(first).toMatchObject({ code: 0 });
    expect(JSON.parse(first.out)).toMatchObject({ from: 0, to: POSTGRES_MIGRATIONS.length });
    const again = await cli(['migrate'], { SITEBEACON_DATABASE_URL: schema.url });
    expect(again.code).toBe(0);
    expect(again.out).toMatch(new RegExp(`schema version ${POSTGRES_MIGRATIONS.length}, nothing to do$`));
  });

  test('serve refuses a database it cannot write (a read-only connection): exit 1, naming it without its password and the reason', async () => {
    await cli(['migrate', '--database-url', schema.url]);
    const url = new URL(schema.url);
    url.password = 'not-shown';
    url.searchParams.set('options', `${url.searchParams.get('options')} -c default_transaction_read_only=on`);
    const served = await cli(['serve', '--port', '0', '--database-url', url.href]);
    expect(served.code).toBe(1);
    expect(served.err).toMatch(/cannot write the database postgres:\/\/[^ ]*:\*\*\*@.*read-only transaction/);
    expect(served.err).not.toContain('not-shown');
  });

  test('on SQLite: creates and migrates the file', async () => {
    const file = join(dir, 'new', 'sitebeacon.db');
    const { code, out } = await cli(['migrate', '--db', file, '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(out) as { database: string; from: number; to: number };
    expect(result).toMatchObject({ database: file, from: 0 });
    expect(result.to).toBeGreaterThan(0);
    expect(JSON.parse((await cli(['migrate', '--db', file, '--json'])).out)).toEqual({ ...result, from: result.to });
  });

  test('a database newer than this collector: exit 1 naming both versions, on either store', async () => {
    await cli(['migrate', '--database-url', schema.url]);
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    await client.query('INSERT INTO sitebeacon_schema (version) VALUES (999)');
    await client.end();
    const refused = await cli(['migrate', '--database-url', schema.url]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(new RegExp(`schema version 999, newer than this collector knows \\(${POSTGRES_MIGRATIONS.length}\\)`));
    const served = await cli(['serve', '--port', '0', '--database-url', schema.url]);
    expect(served.code).toBe(1);
    expect(served.err).toMatch(/schema version 999, newer than this collector/);

    const file = join(dir, 'newer.db');
    await cli(['migrate', '--db', file]);
    const Database = (await import('better-sqlite3')).default;
    const raw = new Database(file);
    raw.pragma('user_version = 999');
    raw.close();
    expect((await cli(['migrate', '--db', file])).err).toMatch(/schema version 999, newer than this collector knows \(\d+\)/);
  });
});

describe('every command takes --database-url', () => {
  test('site add, key create, action add and export work on PostgreSQL as on SQLite', async () => {
    for (const [flag, location] of [['--database-url', schema.url], ['--db', join(dir, 'same.db')]] as const) {
      const site = JSON.parse((await cli(['site', 'add', '--origin', 'https://shop.example', '--json', flag, location])).out) as { site_key: string };
      expect((await cli(['key', 'create', '--site', site.site_key, '--json', flag, location])).code).toBe(0);
      expect((await cli(['action', 'add', '--site', site.site_key, '--type', 'flush_cache', flag, location])).code).toBe(0);
      const store = flag == '--db' ? createSqliteStore({ file: location }) : await createPostgresStore({ url: location });
      await seedStore(store).insertErrors(site.site_key, [{ error_type: 'js', error_message: 'x is not defined', line: 3 }], Date.parse('2026-06-01T00:00:00Z'));
      expect(await store.actions.pending(site.site_key)).toMatchObject([{ type: 'flush_cache' }]);
      await store.close();
      const exported = await cli(['export', '--site', site.site_key, '--kind', 'errors', flag, location]);
      expect(exported.code).toBe(0);
      expect(JSON.parse(exported.out)).toMatchObject({ error_message: 'x is not defined', line: 3, received_at: '2026-06-01T00:00:00.000Z' });
    }
  });

  test('user add, key revoke, site rotate-key, agent revoke and wordpress revoke work on PostgreSQL as on SQLite', async () => {
    for (const [flag, location] of [['--database-url', schema.url], ['--db', join(dir, 'revoke.db')]] as const) {
      const json = async (...argv: string[]) => {
        const run = await cli([...argv, '--json', flag, location]);
        expect(run).toMatchObject({ code: 0, err: '' });
        return JSON.parse(run.out) as Record<string, any>;
      };
      const site = (await json('site', 'add', '--origin', 'https://shop.example')).site_key as string;
      const user = await json('user', 'add', '--email', 'Ann@Shop.example', '--site', site);
      expect(user).toMatchObject({ email: 'ann@shop.example', site_keys: [site], password: expect.any(String) });
      expect((await cli(['user', 'add', '--email', 'ann@shop.example', flag, location])).err).toMatch(/exists/);
      const key = (await json('key', 'create', '--site', site)).api_key as string;
      const store = flag == '--db' ? createSqliteStore({ file: location }) : await createPostgresStore({ url: location });
      await store.wordpress.put({ site_key: site, site_url: 'https://shop.example', name: 'Shop' });
      await store.agents.add({ id: 'agt_cli', token_hash: 'h', hostname: 'web1', os: 'linux', arch: 'amd64', agent_version: '1', site_key: site });
      await store.close();

      const rotated = await json('site', 'rotate-key', '--site', site);
      expect(rotated).toMatchObject({ previous_site_key: site, site_key: expect.not.stringMatching(site) });
      expect(await json('key', 'revoke', key)).toEqual({ revoked: true, name: expect.any(String), site_key: rotated.site_key });
      expect(await json('agent', 'revoke', 'agt_cli')).toMatchObject({ revoked: true });
      expect(await json('wordpress', 'revoke', '--site', rotated.site_key)).toEqual({ revoked: true, site_key: rotated.site_key });
      for (const again of [['key', 'revoke', key], ['agent', 'revoke', 'agt_cli'], ['wordpress', 'revoke', '--site', rotated.site_key], ['site', 'rotate-key', '--site', site]]) {
        expect((await cli([...again, flag, location])).code).toBe(1);
      }
      const after = flag == '--db' ? createSqliteStore({ file: location }) : await createPostgresStore({ url: location });
      expect(await after.users.findByEmail('ann@shop.example')).toMatchObject({ site_keys: [rotated.site_key] });
      expect(await after.apiKeys.findByHash(hashApiKey(key))).toBeUndefined();
      expect(await after.agents.list(rotated.site_key)).toEqual([]);
      expect(await after.wordpress.get(rotated.site_key)).toBeUndefined();
      expect(await after.sites.get(site)).toBeUndefined();
      await after.close();
    }
  });

  test('--db and --database-url together are a usage error (exit 2)', async () => {
    const { code, err } = await cli(['export', '--site', 'default', '--kind', 'errors', '--db', join(dir, 'x.db'), '--database-url', schema.url]);
    expect(code).toBe(2);
    expect(err).toMatch(/name two databases/);
  });

  test('serve --sync with --database-url is a usage error (exit 2): PostgreSQL\'s synchronous_commit decides', async () => {
    const { code, err } = await cli(['serve', '--port', '0', '--sync', 'full', '--database-url', schema.url]);
    expect(code).toBe(2);
    expect(err).toMatch(/--sync is for SQLite files/);
  });
});

describe('sitebeacon backup', () => {
  test('copies the SQLite store while a store has it open and writes to it; the copy opens with every record', async () => {
    const file = join(dir, 'sitebeacon.db');
    const store = createSqliteStore({ file });
    const seed = seedStore(store);
    for (let i = 0; i < 20; i++) await seed.insertErrors('default', Array.from({ length: 50 }, (_, n) => ({ error_type: 'js', error_message: `m${i}-${n}` })));
    const writing = seed.insertErrors('default', [{ error_type: 'js', error_message: 'during' }]);
    const copy = join(dir, 'backups', 'copy.db');
    const { code, out } = await cli(['backup', copy, '--db', file, '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ backup: copy, pages: expect.any(Number) });
    await writing;
    await store.close();
    const restored = createSqliteStore({ file: copy });
    const messages = (await seedStore(restored).stored('errors', 'default')).map((record) => record.error_message);
    expect(messages.filter((message) => message != 'during')).toHaveLength(1000);
    await restored.close();
    const again = await cli(['backup', copy, '--db', file]);
    expect(again).toMatchObject({ code: 1, err: expect.stringMatching(/exists: a backup never overwrites/) });
  });

  test('needs a FILE, and an SQLite store', async () => {
    expect((await cli(['backup', '--db', join(dir, 'x.db')])).code).toBe(2);
    const postgres = await cli(['backup', join(dir, 'copy.db'), '--database-url', schema.url]);
    expect(postgres).toMatchObject({ code: 2, err: expect.stringMatching(/for PostgreSQL use pg_dump/) });
  });
});
