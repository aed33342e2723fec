import { Worker } from 'node:worker_threads';
import { mapJobs, type MapAnswer, type MapJob } from './mapJobs';
import type { FromMapThread, ToMapThread } from './mapThread';

/**
 * Where the thread's script is: dist/sourceMapThread.js, as rollup emits it from mapThread.ts
 * (rollup.config.mjs puts its URL here); under vitest, the bundle collector/testing/buildSqliteWriter.ts
 * makes of the same sources before the tests (vitest.config.ts).
 */
declare const __SITEBEACON_MAP_THREAD_URL__: string | undefined;

const threadUrl = () =>
  typeof __SITEBEACON_MAP_THREAD_URL__ == 'string'
    ? new URL(__SITEBEACON_MAP_THREAD_URL__)
    : new URL('../../dist/sourceMapThread.js', import.meta.url);

/** Jobs sent and not answered yet, at most: past this a job is refused at once (MapThreadUnavailable). */
export const MAX_MAP_JOBS = 16;
/**
 * The thread's heap: room for the cache (MAP_CACHE_BYTES, mapJobs.ts) and one map at the limits
 * being parsed (MAX_MAP_SEGMENTS mappings take about 190 MB decoded: parseSourceMap.ts).
 */
export const MAP_THREAD_LIMITS = { maxOldGenerationSizeMb: 640, maxYoungGenerationSizeMb: 16 };

/** The map thread cannot take the job: too many under way, or it stopped (crashed, or was ended) before answering. */
export class MapThreadUnavailable extends Error {}

type Pending = { resolve: (answer: MapAnswer) => void; reject: (error: unknown) => void; job: MapJob };

/**
 * The source map thread as the HTTP thread uses it (docs/source-maps.md, "Limits"): each job a
 * message, answered by a promise, so that parsing a map at the size limit (seconds) never holds the
 * event loop. The thread starts with the first job, and again with the job after it stopped: a
 * crash (its heap exhausted by a map) fails the jobs it had with MapThreadUnavailable, and loses its
 * cache, nothing else. At most MAX_MAP_JOBS jobs are under way. A thread that cannot start at all
 * (no script: the sources run without `npm run build`) leaves its jobs, and every job after, to
 * this thread: the answers are the same, only the thread differs.
 *
 * @example
 * const maps = createMapWorker();
 * const answer = await maps.run({ type: 'check', text, key: null, index: false });
 */
export const createMapWorker = ({ resourceLimits = MAP_THREAD_LIMITS }: { resourceLimits?: typeof MAP_THREAD_LIMITS } = {}) => {
  let worker: Worker | undefined;
  let here: ReturnType<typeof mapJobs> | undefined;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  let ending: Worker | undefined;
  /** The thread ended: its jobs fail, or, when it never started (no script), run here from now on. */
  const stopped = (thread: Worker, started: boolean) => {
    if (worker !== thread) return;
    // A thread ended by stop() did start, as far as its jobs are concerned: they fail.
    const ready = started || ending === thread;
    worker = undefined;
    const unanswered = [...pending.values()];
    pending.clear();
    if (!ready) here ??= mapJobs();
    for (const job of unanswered) {
      if (ready) job.reject(new MapThreadUnavailable('the source map thread stopped before answering'));
      else runHere(job);
    }
  };
  const runHere = ({ job, resolve, reject }: Pending) => {
    try {
      resolve(here!.run(job));
    } catch (error) {
      reject(error);
    }
  };
  const start = () => {
    const thread = new Worker(threadUrl(), { resourceLimits });
    let ready = false;
    thread.unref();
    thread.on('message', (message: FromMapThread) => {
      if ('ready' in message) return void (ready = true);
      const job = pending.get(message.id);
      pending.delete(message.id);
      if (!pending.size) thread.unref();
      if (!job) return;
      if (message.ok) job.resolve(message.value);
      else job.reject(new Error(message.message));
    });
    thread.on('error', () => stopped(thread, ready));
    thread.on('exit', () => stopped(thread, ready));
    return thread;
  };
  const run = (job: MapJob): Promise<MapAnswer> =>
    new Promise((resolve, reject) => {
      if (here) return runHere({ job, resolve, reject });
      if (pending.size >= MAX_MAP_JOBS) return reject(new MapThreadUnavailable(`${MAX_MAP_JOBS} source map jobs are under way`));
      worker ??= start();
      const id = nextId++;
      pending.set(id, { job, resolve, reject });
      worker.ref();
      // A map's text is copied to the thread (a structured clone of a string: no parsing here).
      worker.postMessage({ id, job } satisfies ToMapThread);
    });
  return {
    run,
    /** Jobs sent to the thread and not answered. */
    pending: () => pending.size,
    /** Whether jobs run on a thread (false once none could start: they run on this one). */
    threaded: () => here === undefined,
    /** Ends the thread (its jobs fail with MapThreadUnavailable); the next job starts another. */
    stop: async () => {
      const thread = worker;
      if (!thread) return;
      ending = thread;
      await thread.terminate();
    },
  };
};

export type MapWorker = ReturnType<typeof createMapWorker>;
