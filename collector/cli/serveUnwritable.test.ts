// A read-only or unwritable database makes `serve` refuse to start, with a message naming the
// file (docs/durability.md, "Faults of the store"), instead of running while every report gets 500. Needs `npm run build`.
// Root writes to read-only files anyway, so as root the collector runs as `nobody`, as a service would.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { createSqliteStore } from '../store/sqlite';
import { seedStore } from '../testing/seed';
import { CLI } from '../testing/spawnCollector';

// Real processes on a machine shared with other work: generous time.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const asRoot = process.getuid?.() === 0;

// `nobody` must reach the built CLI: a checkout in a folder only root may enter (`mktemp -d` makes
// them 0700) would fail every test here with MODULE_NOT_FOUND. Such folders above the CLI get
// others' search permission (o+x: enter, not list) for these tests, and their mode back afterwards.
const restoreModes: Array<[string, number]> = [];
beforeAll(() => {
  if (!asRoot) return;
  for (let folder = dirname(CLI); folder != dirname(folder); folder = dirname(folder)) {
    const { mode } = statSync(folder);
    if (!(mode & 0o001)) {
      restoreModes.push([folder, mode & 0o7777]);
      chmodSync(folder, (mode & 0o7777) | 0o001);
    }
  }
});
afterAll(() => {
  for (const [folder, mode] of restoreModes) chmodSync(folder, mode);
});
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-readonly-'));
  chmodSync(dir, 0o755);
});
afterEach(() => {
  chmodSync(dir, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

/** `sitebeacon serve` on `db`: its exit code and stderr. One that starts is stopped after 10 s (and fails the test). */
const serve = (db: string) => {
  const run = spawnSync(process.execPath, [CLI, 'serve', '--port', '0', '--db', db], {
    encoding: 'utf8',
    timeout: 10_000,
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
  });
  return { code: run.status, stderr: run.stderr };
};

test('a read-only database file: exit 1, naming the file', () => {
  const db = join(dir, 'sitebeacon.db');
  const store = createSqliteStore({ file: db });
  return store.close().then(() => {
    chmodSync(db, 0o444);
    const { code, stderr } = serve(db);
    expect(code).toBe(1);
    expect(stderr).toContain(db);
    expect(stderr).toMatch(/readonly|read-only/i);
  });
});

test('a read-only file whose WAL is writable (the database opens and reads fine, only writes fail): exit 1, naming the file', async () => {
  const db = join(dir, 'sitebeacon.db');
  // Held open, so that its -wal and -shm files stay beside it, writable.
  const holder = createSqliteStore({ file: db });
  try {
    await seedStore(holder).insertErrors('default', [{ error_type: 'js', error_message: 'm' }]);
    chmodSync(db, 0o444);
    chmodSync(`${db}-wal`, 0o666);
    chmodSync(`${db}-shm`, 0o666);
    const { code, stderr } = serve(db);
    expect(code).toBe(1);
    expect(stderr).toContain(`cannot write the database ${db}`);
  } finally {
    await holder.close();
  }
});

test('a folder it may not write, with no database yet: exit 1, naming the file', () => {
  const folder = join(dir, 'data');
  mkdirSync(folder);
  chmodSync(folder, 0o555);
  const db = join(folder, 'sitebeacon.db');
  const { code, stderr } = serve(db);
  expect(code).toBe(1);
  expect(stderr).toContain(db);
});
