// `sitebeacon <command> --help` prints the command's help and does nothing else: run here against
// a real SQLite file, which must come out byte for byte as it went in, and against a path where
// no database exists, where none may appear.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli } from '../testing/runCli';
import { COMMANDS } from './commands';

let dir: string;
let db: string;
let siteKey: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-help-'));
  db = join(dir, 'sitebeacon.db');
  const added = await runCli(['site', 'add', '--origin', 'https://shop.example', '--json', '--db', db]);
  siteKey = (JSON.parse(added.out) as { site_key: string }).site_key;
  expect((await runCli(['key', 'create', '--site', siteKey, '--db', db])).code).toBe(0);
  // Out of WAL mode, the database is one file that only it changes: a command that opened it as a
  // store (which sets WAL mode) would leave a -wal file and other header bytes.
  const raw = new Database(db);
  raw.pragma('journal_mode = DELETE');
  raw.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a command could change: the folder's files, the database's bytes and modification time, its rows. */
const snapshot = () => {
  const raw = new Database(db, { readonly: true });
  const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>;
  const rows = Object.fromEntries(tables.map(({ name }) => [name, (raw.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]));
  const version = raw.pragma('user_version', { simple: true });
  raw.close();
  return {
    files: readdirSync(dir).sort(),
    sha256: createHash('sha256').update(readFileSync(db)).digest('hex'),
    mtimeMs: statSync(db).mtimeMs,
    version,
    rows,
  };
};

const name = (spec: (typeof COMMANDS)[number]) => spec.name.join(' ');

test.each(COMMANDS.map((spec) => [name(spec), spec] as const))('%s --help prints its help, exits 0 and leaves the database as it was', async (_name, spec) => {
  const before = snapshot();
  expect(before.files).toEqual(['sitebeacon.db']);
  for (const help of ['--help', '-h']) {
    const { code, out, err } = await runCli([...spec.name, help, '--db', db]);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toContain(`Usage: sitebeacon ${name(spec)}`);
    for (const flag of Object.keys(spec.flags)) expect(out, flag).toContain(`--${flag}`);
  }
  expect(snapshot()).toEqual(before);
});

test('--help wins over everything else on the line: no site is created, no server started, no key revoked', async () => {
  const before = snapshot();
  const lines = [
    ['site', 'add', '--origin', 'https://x.example', '--help'],
    ['serve', '--port', '0', '--demo', '--help'],
    ['migrate', '--help'],
    ['key', 'revoke', 'sbk_nothing', '-h'],
    ['site', 'rotate-key', '--site', siteKey, '--help'],
    ['user', 'add', '--email', 'ann@shop.example', '--help'],
    ['backup', join(dir, 'copy.db'), '--help'],
    ['restore', join(dir, 'copy.db'), '--help'],
    // Help even when the rest of the line is wrong.
    ['export', '--kind', 'nonsense', '--bogus', '--help'],
  ];
  for (const argv of lines) expect(await runCli([...argv, '--db', db]), argv.join(' ')).toMatchObject({ code: 0, err: '' });
  expect(snapshot()).toEqual(before);
});

test('--help with a database that does not exist: no file and no folder is made, for any command', async () => {
  const missing = join(dir, 'nowhere', 'sitebeacon.db');
  for (const spec of COMMANDS) expect((await runCli([...spec.name, '--help', '--db', missing])).code, name(spec)).toBe(0);
  // The default location too, through the environment.
  for (const spec of COMMANDS) expect((await runCli([...spec.name, '--help'], { env: { SITEBEACON_DB: missing } })).code).toBe(0);
  expect(existsSync(join(dir, 'nowhere'))).toBe(false);
});

test('sitebeacon --help, -h, help and no command list every command; help COMMAND is COMMAND --help', async () => {
  for (const argv of [['--help'], ['-h'], ['help'], []]) {
    const { code, out } = await runCli(argv);
    expect(code).toBe(0);
    for (const spec of COMMANDS) expect(out).toContain(`\n  ${name(spec)}`);
    expect(out).toContain('--version');
  }
  expect((await runCli(['help', 'site', 'add'])).out).toBe((await runCli(['site', 'add', '--help'])).out);
});

test("serve --help names every setting's SITEBEACON_ variable", async () => {
  const { out } = await runCli(['serve', '--help']);
  const serve = COMMANDS.find((spec) => name(spec) == 'serve')!;
  const variables = Object.values(serve.flags).flatMap((flag) => (flag.env ? [flag.env] : []));
  expect(variables.length).toBeGreaterThan(15);
  for (const variable of variables) expect(out).toContain(variable);
});
