// The command line read against each command's declaration: unknown flags named (exit 2), and
// serve's settings from SITEBEACON_* variables, a flag winning over its variable.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { parseCheckArgs } from '../check/parseCheckArgs';
import { runCli } from '../testing/runCli';
import { check } from './check';
import { COMMANDS } from './commands';
import { parseCommand } from './parseCommand';
import { readServeOptions } from './readServeOptions';
import { serve } from './serve';

test.each(COMMANDS.map((spec) => [spec.name.join(' '), spec] as const))('%s --no-such-flag exits 2 and names the flag on stderr', async (name, spec) => {
  for (const flag of ['--no-such-flag', '--no-such-flag=1', '-x']) {
    const { code, out, err } = await runCli([...spec.name, flag]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(`Unknown option ${flag.split('=')[0]}`);
    expect(err).toContain(`Usage: sitebeacon ${name}`);
  }
});

test('--version and -v print the version in package.json', async () => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  expect(version).toMatch(/^\d+\.\d+\.\d+/);
  for (const flag of ['--version', '-v']) expect(await runCli([flag])).toEqual({ code: 0, out: version, err: '' });
});

const io = (env: Record<string, string> = {}) => ({ out: () => {}, err: () => {}, env });
const serveOptions = (argv: string[], env: Record<string, string> = {}) => readServeOptions(parseCommand(serve, argv, io(env)), io(env));

/** One setting of serve as a flag and as a variable, and what each gives. */
const SETTINGS: Array<[flag: string[], variable: Record<string, string>, expected: Partial<ReturnType<typeof serveOptions>>]> = [
  [['--port', '9000'], { SITEBEACON_PORT: '9000' }, { port: 9000 }],
  [['--host', '0.0.0.0'], { SITEBEACON_HOST: '0.0.0.0' }, { host: '0.0.0.0' }],
  [['--public-url', 'https://app.example/'], { SITEBEACON_PUBLIC_URL: 'https://app.example/' }, { publicUrl: 'https://app.example' }],
  [['--ingest-url', 'https://in.example'], { SITEBEACON_INGEST_URL: 'https://in.example' }, { ingestUrl: 'https://in.example' }],
  [['--tls-cert', 'c.pem', '--tls-key', 'k.pem'], { SITEBEACON_TLS_CERT: 'c.pem', SITEBEACON_TLS_KEY: 'k.pem' }, { tls: { cert: resolve('c.pem'), key: resolve('k.pem') } }],
  [['--rate-limit', '7', '--site-rate-limit', '70'], { SITEBEACON_RATE_LIMIT: '7', SITEBEACON_SITE_RATE_LIMIT: '70' }, { rateLimits: { perIp: 7, perSite: 70 } }],
  [['--trust-proxy'], { SITEBEACON_TRUST_PROXY: 'true' }, { maxConnectionsPerClient: 0 }],
  [['--max-connections-per-client', '3'], { SITEBEACON_MAX_CONNECTIONS_PER_CLIENT: '3' }, { maxConnectionsPerClient: 3 }],
  [['--log-level', 'error'], { SITEBEACON_LOG_LEVEL: 'error' }, { minimumStatus: 500 }],
  [['--sync', 'full'], { SITEBEACON_SYNC: 'full' }, { sync: 'full' }],
  [['--retention-days', '30'], { SITEBEACON_RETENTION_DAYS: '30' }, { retentionDays: 30 }],
  [['--db', 'x.db'], { SITEBEACON_DB: 'x.db' }, { database: resolve('x.db') }],
  [['--database-url', 'postgres://db.internal/sb'], { SITEBEACON_DATABASE_URL: 'postgres://db.internal/sb' }, { database: 'postgres://db.internal/sb' }],
];

test.each(SETTINGS)('serve %j is the same setting as its variable %j', (flag, variable, expected) => {
  expect(serveOptions(flag)).toMatchObject(expected);
  expect(serveOptions([], variable)).toMatchObject(expected);
});

test('serve\'s switches and agent settings come from their variables too: --demo, --trust-proxy, --agent-updates-dir, --agent-signing-key', () => {
  const parsed = parseCommand<typeof serve.flags>(serve, [], io({
    SITEBEACON_DEMO: '1',
    SITEBEACON_TRUST_PROXY: 'yes',
    SITEBEACON_AGENT_UPDATES_DIR: 'builds',
    SITEBEACON_AGENT_SIGNING_KEY: 'key.pem',
  }));
  expect(parsed.values).toMatchObject({ demo: true, 'trust-proxy': true, 'agent-updates-dir': 'builds', 'agent-signing-key': 'key.pem' });
  expect(parseCommand<typeof serve.flags>(serve, [], io({ SITEBEACON_DEMO: 'false' })).values.demo).toBe(false);
  expect(parseCommand<typeof serve.flags>(serve, [], io({})).values.demo).toBe(false);
});

test('a flag wins over its variable; an empty variable is no setting', () => {
  const env = { SITEBEACON_PORT: '9000', SITEBEACON_HOST: '0.0.0.0', SITEBEACON_LOG_LEVEL: 'loud', SITEBEACON_RETENTION_DAYS: '' };
  expect(serveOptions(['--port', '9001', '--host', '127.0.0.2', '--log-level', 'warn'], env)).toMatchObject({ port: 9001, host: '127.0.0.2', minimumStatus: 400, retentionDays: undefined });
  expect(serveOptions(['--db', 'x.db'], { SITEBEACON_DATABASE_URL: 'postgres://db.internal/sb' }).database).toBe(resolve('x.db'));
});

test('a bad value from a variable is a usage error naming the variable', async () => {
  for (const [env, message] of [
    [{ SITEBEACON_PORT: 'http' }, 'SITEBEACON_PORT http is not a port'],
    [{ SITEBEACON_RATE_LIMIT: 'fast' }, 'SITEBEACON_RATE_LIMIT fast is not a number of requests per second'],
    [{ SITEBEACON_DEMO: 'maybe' }, 'SITEBEACON_DEMO=maybe is neither true nor false'],
    [{ SITEBEACON_SYNC: 'extra' }, 'SITEBEACON_SYNC extra is not one of normal, full'],
  ] as const) {
    const { code, err } = await runCli(['serve', '--db', '/nonexistent/sitebeacon.db'], { env });
    expect(code).toBe(2);
    expect(err).toContain(message);
  }
});

test('SITEBEACON_SYNC left in an environment shared with PostgreSQL collectors is not an error; the flag is', () => {
  const postgres = { SITEBEACON_DATABASE_URL: 'postgres://db.internal/sb' };
  expect(serveOptions([], { ...postgres, SITEBEACON_SYNC: 'full' }).database).toBe(postgres.SITEBEACON_DATABASE_URL);
  expect(() => serveOptions(['--sync', 'full'], postgres)).toThrow(/--sync is for SQLite files/);
});

test('a required flag, argument or an extra argument missing is a usage error that says which', async () => {
  expect(await runCli(['site', 'add'])).toMatchObject({ code: 2, err: expect.stringContaining('site add needs at least one --origin URL') });
  expect(await runCli(['key', 'revoke'])).toMatchObject({ code: 2, err: expect.stringContaining('key revoke needs KEY') });
  expect(await runCli(['key', 'revoke', 'a', 'b'])).toMatchObject({ code: 2, err: expect.stringContaining('key revoke takes one KEY, not 2') });
  expect(await runCli(['migrate', 'now'])).toMatchObject({ code: 2, err: expect.stringContaining('migrate takes no argument, not "now"') });
});

test("check's declaration names the flags check/parseCheckArgs.ts reads, which runs the check", () => {
  const values: Record<string, string> = { site: 'abc', page: 'https://shop.example/', 'connect-timeout': '5', timeout: '5', ca: 'ca.pem', db: 'x.db' };
  for (const [name, flag] of Object.entries(check.flags)) {
    const argv = ['collector.example', `--${name}`, ...(flag.type == 'string' ? [values[name]!] : [])];
    const parsed = parseCheckArgs(argv);
    expect(typeof parsed == 'string' ? parsed : 'ok', name).toBe('ok');
  }
  expect(parseCheckArgs(['collector.example', '--bogus'])).toMatch(/Unknown option/);
});
