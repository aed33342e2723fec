import { parentPort, workerData } from 'node:worker_threads';
import { main } from './main';

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
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  env: process.env,
  onStop: (graceful) => (stop = graceful),
});
// A command that failed (a usage mistake, a database it cannot write) ends the thread with its code.
if (code) process.exitCode = code;
