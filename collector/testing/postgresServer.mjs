import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPostgres } from './findPostgres.mjs';

// JavaScript with JSDoc types, not TypeScript: the benchmarks (bench/postgres.mjs) run it with
// plain node, and vitest's globalSetup (postgresGlobalSetup.ts) as well.

/**
 * A throw-away PostgreSQL server (Debian's package, no Docker) for tests and benchmarks.
 * @typedef {object} PostgresServer
 * @property {(database?: string) => string} url `postgres://postgres@127.0.0.1:PORT/DATABASE` (trust authentication, loopback only)
 * @property {() => string} log the server's log so far: what to print when a test fails
 * @property {() => void} stop stops the server at once and removes its folder; safe to call twice
 * @property {(mode?: 'fast' | 'immediate') => Promise<void>} halt stops the server and keeps its folder, as an
 *   outage would (`fast`, the default: backends are terminated, clients see FATAL 57P01; `immediate`: killed);
 *   without blocking this process, whose collector keeps answering meanwhile
 * @property {() => Promise<void>} restart starts a halted server again, on the same port and data
 */

const PREFIX = 'sitebeacon-pg-';

/**
 * PostgreSQL refuses to run as root: as root, the server programs run as the `postgres` user
 * (Debian's package creates it) through runuser, or su where there is no runuser.
 */
/** @returns {{ user?: { uid: number, gid: number }, command: (program: string, args: string[]) => [string, string[]] }} */
const runAs = () => {
  if (process.getuid?.() !== 0) return { command: (program, args) => [program, args] };
  let uid;
  let gid;
  try {
    uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
  } catch {
    throw new Error('running as root, PostgreSQL needs a `postgres` user to run as: `apt-get install postgresql` creates it');
  }
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find(existsSync);
  /** @param {string} word */
  const quote = (word) => `'${word.replace(/'/g, `'\\''`)}'`;
  return {
    user: { uid, gid },
    command: (program, args) =>
      runuser ? [runuser, ['-u', 'postgres', '--', program, ...args]] : ['su', ['postgres', '-s', '/bin/sh', '-c', [program, ...args].map(quote).join(' ')]],
  };
};

/** @returns {Promise<number>} */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });

/** @param {number} pid */
const isAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code == 'EPERM';
  }
};

/**
 * Servers whose test run died without stopping them (SIGKILL, a crash) are stopped and removed by
 * the next run: each folder names the process that owns it.
 */
/** @param {(dir: string) => void} stopIn */
const sweepOrphans = (stopIn) => {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(tmpdir(), name);
    let owner;
    try {
      owner = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'));
    } catch {
      continue;
    }
    if (owner && !isAlive(owner)) stopIn(dir);
  }
};

/**
 * Starts a PostgreSQL server in a new temporary folder: `initdb` (as the `postgres` user when we
 * are root), then `pg_ctl start` on a free loopback port with its socket in that folder. The
 * server is stopped and its folder removed by `stop()`, and at the latest when this process exits.
 * Durability settings are off (fsync, full-page writes) unless `durable`: tests kill collectors,
 * never this server; benchmarks measure what a real server does.
 *
 * @example
 * const server = await startPostgresServer();
 * const url = server.url('postgres');
 * server.stop();
 * @param {{ bin?: string, durable?: boolean }} [options]
 * @returns {Promise<PostgresServer>}
 */
export const startPostgresServer = async ({ bin = findPostgres(), durable = false } = {}) => {
  const { user, command } = runAs();
  /** @param {string} program @param {string[]} args */
  const run = (program, args) => {
    const [file, argv] = command(join(bin, program), args);
    return execFileSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  };
  /** The same as `run`, without blocking the event loop. @param {string} program @param {string[]} args @returns {Promise<void>} */
  const runAsync = (program, args) => {
    const [file, argv] = command(join(bin, program), args);
    return new Promise((resolve, reject) =>
      execFile(file, argv, (error, _stdout, stderr) => (error ? reject(new Error(`${program}: ${error.message}\n${stderr}`)) : resolve())),
    );
  };
  /** @param {string} dir */
  const stopIn = (dir) => {
    try {
      if (existsSync(join(dir, 'data', 'postmaster.pid'))) run('pg_ctl', ['stop', '-D', join(dir, 'data'), '-m', 'immediate', '-w', '-s']);
    } catch {
      // Already stopped: its folder goes all the same.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  sweepOrphans(stopIn);

  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  writeFileSync(join(dir, 'owner.pid'), String(process.pid));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  let stopped = false;
  /** @param {number} port */
  const startOptions = (port) =>
    [
      `-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c max_connections=200',
      ...(durable ? ['-c shared_buffers=128MB'] : ['-c fsync=off', '-c full_page_writes=off', '-c shared_buffers=32MB']),
    ].join(' ');
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', stop);
    stopIn(dir);
  };
  process.once('exit', stop);
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
    let port = 0;
    // The free port is found before the server binds it: another process may take it in between.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        run('pg_ctl', ['start', '-D', data, '-w', '-t', '60', '-s', '-l', logFile, '-o', startOptions(port)]);
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
    const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
    const options = startOptions(port);
    /** @param {'fast' | 'immediate'} [mode] */
    const halt = async (mode = 'fast') => {
      if (!stopped) await runAsync('pg_ctl', ['stop', '-D', data, '-m', mode, '-w', '-s']);
    };
    const restart = async () => {
      if (!stopped) await runAsync('pg_ctl', ['start', '-D', data, '-w', '-t', '60', '-s', '-l', logFile, '-o', options]);
    };
    return { url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`, log, stop, halt, restart };
  } catch (error) {
    const detail = /** @type {{ stderr?: string }} */ (error).stderr ?? '';
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    stop();
    throw new Error(`could not start PostgreSQL from ${bin}: ${/** @type {Error} */ (error).message}\n${detail}\n${log}`);
  }
};
