import { Worker } from 'node:worker_threads';

/**
 * The heap limits of the thread `serve` runs on (issue 18: the collector's memory, 128 MB at most).
 * V8 sizes an isolate's heap when it is made, and a process's main isolate only from node's own
 * command line, which `sitebeacon serve` does not own; a thread's from these. The 300 s soak
 * (bench/soak.mjs) peaks at 125-128 MB with them (three runs), 134 MB without:
 * - young generation: 24 MiB (semi-spaces of 8) instead of V8's 48: the requests' objects live for
 *   one commit; 12 MiB (semi-spaces of 4) cost batches of 50 a fifth of their rate, 24 about 5 %
 *   in paired runs (within their run-to-run spread); 18 peaked no lower in the soak;
 * - old generation: at most 1 GiB instead of about 4 (a quarter of this machine's memory, capped):
 *   V8 lets the old generation grow to about 45 MB before its first full collection when its limit
 *   is 4 GiB, from the garbage each scavenge promotes (connections the soak's oversize bodies
 *   close); with 1 GiB, it collects from the start. 1 GiB is far above what the collector holds.
 */
export const SERVE_THREAD_LIMITS = { maxYoungGenerationSizeMb: 24, maxOldGenerationSizeMb: 1024 };

/**
 * Runs `sitebeacon serve ARGS` on a thread with SERVE_THREAD_LIMITS (`script`: dist/serveThread.js), and
 * this process as long as it runs: SIGINT and SIGTERM are passed on to it as a graceful stop, and
 * the process exits with its exit code. The thread writes to the process's stdout and stderr itself
 * (serveThread.ts).
 */
export const serveOnThread = (script: URL, args: string[]) => {
  const thread = new Worker(script, { workerData: { args }, resourceLimits: SERVE_THREAD_LIMITS });
  const stop = () => thread.postMessage({ type: 'stop' });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  thread.on('error', (error) => console.error(error));
  thread.on('exit', (code) => process.exit(code));
};
