import { writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { main } from './main';

/**
 * Writes a line to the process's `fd` at once, as the process's own stdout and stderr do for files
 * and pipes. A thread's `console` goes through the main thread, later: `serve` would then answer
 * before what it printed on listening is out (collector/serve.test.ts reads it right after an answer).
 * A full non-blocking pipe is written again; any other failure drops the line, as a log line must
 * not take the collector down.
 */
const writeLine = (fd: number) => (line: string) => {
  const bytes = Buffer.from(`${line}\n`);
  for (let written = 0; written < bytes.length; ) {
    try {
      written += writeSync(fd, bytes, written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code != 'EAGAIN') return;
    }
  }
};

/**
 * `sitebeacon serve` on the thread cli/serveOnThread.ts starts (dist/serveThread.js). It stops
 * when that thread's owner says so (it receives the process's SIGINT and SIGTERM, which a thread
 * never does); before serve is ready to stop gracefully, there is nothing to finish, and it ends at once.
 */
let stop = (): void => process.exit(0);
parentPort!.on('message', (message: { type?: string }) => message?.type == 'stop' && stop());
// Listening for the stop keeps nothing alive: a serve that failed to start ends the thread.
parentPort!.unref();
const code = await main(['serve', ...(workerData as { args: string[] }).args], {
  out: writeLine(1),
  err: writeLine(2),
  env: process.env,
  onStop: (graceful) => (stop = graceful),
});
// A command that failed (a usage mistake, a database it cannot write) ends the thread with its code.
if (code) process.exitCode = code;
