// `sitebeacon restore` (README, "Backups and upgrades"): the backup installed in place of the
// database, never over a collector's open file, never with the replaced file's WAL left beside it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { runCli } from '../testing/runCli';
import { createSqliteStore } from '../store/sqlite';
import { seedStore } from '../testing/seed';

vi.setConfig({ testTimeout: 30_000 });

let dir: string;
let db: string;
let backupFile: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-restore-'));
  db = join(dir, 'sitebeacon.db');
  backupFile = join(dir, 'backups', 'sitebeacon.db');
  const store = createSqliteStore({ file: db });
  await seedStore(store).insertErrors('default', [{ error_type: 'js', error_message: 'before the backup' }]);
  await store.close();
  expect((await cli('backup', backupFile)).code).toBe(0);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli([...argv, '--db', db]);

const storedMessages = async () => {
  const store = createSqliteStore({ file: db });
  try {
    return (await store.errors.list('default', { limit: 100 })).data.map((report) => report.error_message);
  } finally {
    await store.close();
  }
};

/**
 * A collector's connection in another process that commits reports after the backup, in its WAL
 * only (no checkpoint), and is then killed with SIGKILL: the WAL and -shm stay beside the file.
 */
const killedWriter = async () => {
  const script = `
    const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
    const db = new Database(${JSON.stringify(db)});
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    const columns = 'site_key, received_at, error_type, error_message, fingerprint';
    const insert = db.prepare('INSERT INTO error_reports (' + columns + ") VALUES ('default', 1, 'js', ?, 'f')");
    for (let i = 0; i < 50; i++) insert.run('after the backup ' + i);
    process.stdout.write('written\\n');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('written') && resolve());
    child.once('exit', (code) => reject(new Error(`the writer exited (${code}) before writing`)));
  });
  return {
    kill: async () => {
      const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    },
  };
};

test('after a collector was killed (SIGKILL) with commits in its WAL: refused while it runs; then the backup is installed, the stale -wal and -shm removed, and the database opens with the backup\'s rows', async () => {
  const writer = await killedWriter();
  const whileOpen = await cli('restore', backupFile);
  expect(whileOpen.code).toBe(1);
  expect(whileOpen.err).toContain(`${db} is open in another process`);
  await writer.kill();
  expect(statSync(`${db}-wal`).size).toBeGreaterThan(0);
  expect(existsSync(`${db}-shm`)).toBe(true);

  const { code, out } = await cli('restore', backupFile);
  expect(code).toBe(0);
  expect(out).toContain(`restored ${backupFile} to ${db} (integrity check ok, schema version`);
  expect(out).toContain(`removed the replaced database's ${db}-wal and ${db}-shm`);
  expect(existsSync(`${db}-wal`)).toBe(false);
  expect(existsSync(`${db}-shm`)).toBe(false);
  expect(await storedMessages()).toEqual(['before the backup']);
  const check = new Database(db, { readonly: true });
  expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
  check.close();
  // Nothing is left beside it but the database.
  expect(readFileSync(backupFile).equals(readFileSync(db))).toBe(true);
});

test('refused while a collector in this process has the database open; the database goes on as it was', async () => {
  const store = createSqliteStore({ file: db });
  try {
    const { code, err } = await cli('restore', backupFile, '--json');
    expect(code).toBe(1);
    expect(err).toContain(`${db} is open in another process (a collector, or a command): stop it, then restore`);
    await seedStore(store).insertErrors('default', [{ error_type: 'js', error_message: 'still written' }]);
  } finally {
    await store.close();
  }
  expect(await storedMessages()).toEqual(['before the backup', 'still written']);
});

test('a backup that fails the integrity check is refused, and the database is left as it was', async () => {
  const damaged = join(dir, 'damaged.db');
  const bytes = readFileSync(backupFile);
  // The first table's root page overwritten: the file opens, its schema reads, its b-tree does not.
  bytes.fill(0x5a, 4096 + 8, 2 * 4096);
  writeFileSync(damaged, bytes);
  const before = readFileSync(db);
  const { code, err } = await cli('restore', damaged);
  expect(code).toBe(1);
  expect(err).toContain(`${damaged} fails SQLite's integrity check; nothing was changed`);
  expect(readFileSync(db).equals(before)).toBe(true);
  expect(await storedMessages()).toEqual(['before the backup']);
});

test('--json says what it did; a database that does not exist yet is made from the backup', async () => {
  rmSync(db);
  const { code, out } = await cli('restore', backupFile, '--json');
  expect(code).toBe(0);
  expect(JSON.parse(out)).toMatchObject({ restored: backupFile, db, removed: [] });
  expect(await storedMessages()).toEqual(['before the backup']);
});
