// `sitebeacon check` run as users run it: the built CLI (needs `npm run build`) against a
// `sitebeacon serve` process over HTTPS.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CLI, exportRecords, runCli, selfSignedCertificate, spawnCollector, type CollectorProcess } from '../testing/spawnCollector';
import { refusedPort } from './testing/faultServers';

let dir: string;
let db: string;
let cert: string;
let collector: CollectorProcess;
let siteKey: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-check-cli-'));
  db = join(dir, 'sitebeacon.db');
  const pair = selfSignedCertificate(dir);
  cert = pair.cert;
  siteKey = (JSON.parse(runCli(db, 'site', 'add', '--origin', 'https://shop.example', '--json')) as { site_key: string }).site_key;
  collector = await spawnCollector({ db, args: ['--tls-cert', pair.cert, '--tls-key', pair.key, '--log-level', 'silent'] });
});

afterAll(async () => {
  await collector?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `sitebeacon check ...` with an environment free of proxies; resolves with its exit code and output. */
const checkWith = (extraEnv: Record<string, string>, ...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string; ms: number }>((resolve) => {
    const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/_proxy$/i.test(name))), ...extraEnv };
    const started = performance.now();
    execFile(process.execPath, [CLI, 'check', ...args], { env, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr, ms: performance.now() - started }),
    );
  });
const check = (...args: string[]) => checkWith({}, ...args);

test('exit 0 against a healthy HTTPS collector, one JSON object per step, and the test report is stored', async () => {
  const { code, stdout } = await check(`${collector.url}/api`, '--site', siteKey, '--ca', cert, '--json');
  expect(code, stdout).toBe(0);
  const steps = stdout.trim().split('\n').map((line) => JSON.parse(line) as { step: string; ok: boolean; ms: number; detail: string });
  expect(steps.map((step) => `${step.step}:${step.ok}`)).toEqual(['dns:true', 'connect:true', 'tls:true', 'http:true', 'submission:true']);
  expect(steps.every((step) => Number.isInteger(step.ms) && step.ms >= 0)).toBe(true);
  expect(exportRecords(db, siteKey, 'errors').map((record) => record.error_type)).toEqual(['connectivity_check']);
});

test('exit 5 when the certificate is not trusted, naming the self-signed certificate', async () => {
  const { code, stdout } = await check(collector.url.replace('https://', ''));
  expect(code).toBe(5);
  expect(stdout).toMatch(/^FAIL tls .*presents a self-signed certificate \("localhost"\)/m);
  expect(stdout).toContain('Check failed at step "tls" (exit 5).');
});

test('exit 4 for a refused port, and exit 2 with the usage for a bad URL', async () => {
  const port = await refusedPort();
  const refused = await check(`http://127.0.0.1:${port}/api`);
  expect(refused.code).toBe(4);
  expect(refused.stdout).toContain('refused the connection (ECONNREFUSED)');
  const usage = await check('https://collector.example/somewhere');
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain('Usage: sitebeacon check URL');
});

test('a system resolver that never answers: exit 3, and the process ends within --timeout + 1 s of its own start-up', async () => {
  // The lookup runs in a child process (connection/systemResolver.ts); this preload makes its lookups hang.
  const hang = join(dir, 'hang-dns.cjs');
  writeFileSync(hang, "require('node:dns').lookup = () => {};\n");
  const env = { NODE_OPTIONS: `--require ${hang}` };
  // What starting the CLI costs on this machine now (a usage error exits at once): the bound is on
  // what the check adds to that, so a loaded machine's slower start-up is not counted against it.
  const startUp = (await checkWith(env, 'https://collector.example/somewhere')).ms;
  const { code, stdout, ms } = await checkWith(env, 'collector.example', '--timeout', '1');
  expect(code).toBe(3);
  expect(stdout).toContain('did not resolve collector.example within the total 1 s (--timeout)');
  expect(ms - startUp).toBeLessThan(2000);
});
