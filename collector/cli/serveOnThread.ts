import { Worker } from 'node:worker_threads';

/**
 * The heap limits of the thread `serve` runs on (docs/performance.md, "Memory"; the memory goal and
 * the soak's figures are in the README). V8 sizes an isolate's heap when it is made, and a process's
 * main isolate only from node's own command line, which `sitebeacon serve` does not own; a thread's
 * from these. Measured by the soak (bench/soak.mjs) and, for their cost, by the ingest bench:
 * - young generation: smaller than V8's default, as the requests' objects live for one commit;
 *   halving it again cost batched ingest much of its rate, and a size between peaked no lower;
 * - old generation: capped far below V8's default (which is a share of the machine's memory): with
 *   the default, V8 lets the old generation grow from the garbage each scavenge promotes
 *   (connections the soak's oversize bodies close) before its first full collection; capped, it
 *   collects from the start. The cap is far above what the collector holds.
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
