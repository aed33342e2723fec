// Read-only commands never migrate (README, "Backups and upgrades": `sitebeacon migrate` is the
// step that changes the schema), and `serve` says, one line per version, what it applied on open.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { runCli } from '../testing/runCli';
import { migrate, SQLITE_SCHEMA_VERSION } from '../store/sqlite/migrations';

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-readonly-cli-'));
  db = join(dir, 'sitebeacon.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (argv: string[], onStop?: (stop: () => void) => void) => runCli([...argv, '--db', db], { onStop });

/** A database left at schema version `version`, with the default site. */
const olderDatabase = (version: number) => {
  const old = new Database(db);
  migrate(old, version);
  old.close();
};

const schemaVersion = () => {
  const read = new Database(db, { readonly: true });
  try {
    return read.pragma('user_version', { simple: true }) as number;
  } finally {
    read.close();
  }
};

test.each([
  ['export', ['export', '--site', 'default', '--kind', 'errors']],
  ['snippet', ['snippet', '--site', 'default']],
])('%s refuses a database older than this sitebeacon, naming `sitebeacon migrate`, and leaves it as it was', async (_name, argv) => {
  olderDatabase(SQLITE_SCHEMA_VERSION - 2);
  const { code, err } = await cli(argv);
  expect(code).toBe(1);
  expect(err).toContain(`${db} has schema version ${SQLITE_SCHEMA_VERSION - 2}, older than this sitebeacon's (${SQLITE_SCHEMA_VERSION})`);
  expect(err).toContain(`sitebeacon migrate --db ${db}`);
  expect(schemaVersion()).toBe(SQLITE_SCHEMA_VERSION - 2);
  // After the migrate it names, the same command works.
  expect((await cli(['migrate'])).code).toBe(0);
  expect((await cli(argv)).code).toBe(0);
});

test('export of a database that does not exist: exit 1, and no file is made', async () => {
  const { code, err } = await cli(['export', '--site', 'default', '--kind', 'errors']);
  expect(code).toBe(1);
  expect(err).toContain(`no database at ${db}`);
  expect(existsSync(db)).toBe(false);
});

test('serve logs each schema version it applies on open, one line each, naming the file; none when there is nothing to apply', async () => {
  olderDatabase(SQLITE_SCHEMA_VERSION - 2);
  // serve's graceful stop ends the process: here it only returns.
  const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  try {
    const serveOnce = async () => {
      let stop = () => {};
      const served = await cli(['serve', '--port', '0', '--json'], (s) => (stop = s));
      stop();
      await vi.waitFor(() => expect(exit).toHaveBeenCalled(), { timeout: 10_000 });
      exit.mockClear();
      return served;
    };
    const first = await serveOnce();
    expect(first.code).toBe(0);
    const lines = first.err
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: string; message?: string })
      .filter((line) => line.message?.startsWith('applied schema version'));
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ['info', `applied schema version ${SQLITE_SCHEMA_VERSION - 1} to ${db}`],
      ['info', `applied schema version ${SQLITE_SCHEMA_VERSION} to ${db}`],
    ]);
    expect(schemaVersion()).toBe(SQLITE_SCHEMA_VERSION);
    expect((await serveOnce()).err).not.toContain('applied schema version');
  } finally {
    exit.mockRestore();
  }
});
