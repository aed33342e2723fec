import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI (`npm run build`), run as users run it. */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** A `sitebeacon serve` child process on a random port; for tests and benchmarks. */
export interface CollectorProcess {
  /** `http://127.0.0.1:PORT` (or https with TLS). */
  url: string;
  port: number;
  /** The whole line `serve --json` printed (`dashboard`, and with --demo `demo` and `demo_user`). */
  info: Record<string, any>;
  child: ChildProcess;
  /** Everything the process wrote to stderr (the request log, errors). */
  stderr: () => string;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code once it has exited. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** The option naming a database: `--database-url` for a PostgreSQL URL, else `--db` for an SQLite file. */
export const databaseArgs = (db: string) => (/^postgres(?:ql)?:\/\//i.test(db) ? ['--database-url', db] : ['--db', db]);

/**
 * Starts `sitebeacon serve --json --port 0 --db DB ...args` (`--database-url` when DB is a
 * PostgreSQL URL) and resolves once it listens, with the URL from the line `serve --json` prints then.
 *
 * @example
 * const collector = await spawnCollector({ db: '/tmp/x.db', args: ['--rate-limit', '0'] });
 */
export const spawnCollector = ({ db, args = [] }: { db: string; args?: string[] }): Promise<CollectorProcess> => {
  const child = spawn(process.execPath, [CLI, 'serve', '--json', '--port', '0', '--host', '127.0.0.1', ...databaseArgs(db), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk;
      const line = stdout.split('\n', 2);
      if (line.length < 2) return;
      const info = JSON.parse(line[0]!) as { url: string };
      resolve({ url: info.url, port: Number(new URL(info.url).port), info, child, stderr: () => stderr, stop });
    });
    exited.then((code) => reject(new Error(`sitebeacon serve exited with ${code}: ${stdout}${stderr}`)));
  });
};

/** Runs one CLI command synchronously against `db` (a file or a PostgreSQL URL); returns its stdout. */
export const runCli = (db: string, ...args: string[]) => execFileSync(process.execPath, [CLI, ...args, ...databaseArgs(db)], { encoding: 'utf8' });

/** The records of NDJSON text, as `sitebeacon export` prints them. */
export const parseNdjson = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);

/** `sitebeacon export --site SITE_KEY --kind KIND` against `db`: what the collector stored. */
export const exportRecords = (db: string, siteKey: string, kind: 'errors' | 'csp' | 'performance') =>
  parseNdjson(runCli(db, 'export', '--site', siteKey, '--kind', kind));

/** A self-signed certificate for localhost and 127.0.0.1 (openssl), valid for one day. */
export const selfSignedCertificate = (dir: string) => {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert,
      '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
    { stdio: 'ignore' },
  );
  return { cert, key };
};
