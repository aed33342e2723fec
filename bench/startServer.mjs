// A server process for the benchmarks: `sitebeacon serve --json` or bench/ceiling.mjs, both of
// which print one JSON line {"url": ...} once they listen.
import { spawn } from 'node:child_process';

export const CLI = new URL('../dist/cli.js', import.meta.url).pathname;

/** `sitebeacon serve --json --port 0 --db DB` with rate limits off and `args`, as `startServer` arguments. */
export const serveArgs = (db, ...args) => [CLI, 'serve', '--json', '--port', '0', '--db', db, '--rate-limit', '0', '--site-rate-limit', '0', ...args];

/** Starts `node ...args`; resolves with its URL, the child, and a stop function once it listens. */
export const startServer = (args) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline < 0) return;
      const { url } = JSON.parse(out.slice(0, newline));
      resolve({ url, child, stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
