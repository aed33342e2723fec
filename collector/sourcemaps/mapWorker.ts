import { rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { makeMapFolder } from './mapFiles';
import { mapJobs, type MapAnswer, type MapJob } from './mapJobs';
import type { FromMapThread, MapThreadData, ToMapThread } from './mapThread';

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
 * The thread's heap: one map at the size limit being checked and compiled (its text and its parsed
 * JSON, about twice MAX_MAP_CHARS in one-byte strings: parseSourceMap.ts); kept maps are files. A
 * small young generation: what a job allocates is mostly large (texts, chunks), and what the young
 * generation reserves is resident all the thread's life.
 */
export const MAP_THREAD_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 4 };

/** The folders of compact maps this process made (mapFiles.ts), deleted as it exits. */
const folders = new Set<string>();
const removeFolders = () => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true }));

/**
 * A thread with no job for this long ends, and gives its heap (the parsed maps) back; the next job
 * starts another, with an empty cache (docs/source-maps.md, "The map thread").
 */
export const MAP_THREAD_IDLE_MS = 30_000;

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
 * this thread: the answers are the same, only the thread differs. A thread without a job for
 * `idleMs` ends, so that the memory its parsed maps took is the process's again.
 *
 * @example
 * const maps = createMapWorker();
 * const answer = await maps.run({ type: 'check', text, key: null, index: false });
 */
export const createMapWorker = ({
  resourceLimits = MAP_THREAD_LIMITS,
  idleMs = MAP_THREAD_IDLE_MS,
}: { resourceLimits?: typeof MAP_THREAD_LIMITS; idleMs?: number } = {}) => {
  let worker: Worker | undefined;
  let here: ReturnType<typeof mapJobs> | undefined;
  let dir: string | undefined;
  /** The folder of this worker's compact maps, made at its first job. */
  const folder = () => {
    if (dir) return dir;
    if (!folders.size) process.once('exit', removeFolders);
    folders.add((dir = makeMapFolder()));
    return dir;
  };
  let nextId = 0;
  const pending = new Map<number, Pending>();

  let ending: Worker | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  /** Ends the thread (its jobs fail with MapThreadUnavailable); the next job starts another. */
  const stop = async () => {
    clearTimeout(idle);
    const thread = worker;
    if (!thread) return;
    ending = thread;
    await thread.terminate();
  };
  /** Ends a thread that has no job: let go of at once, so that a job arriving meanwhile starts another. */
  const endIdle = () => {
    const thread = worker;
    if (!thread || pending.size) return;
    worker = undefined;
    void thread.terminate();
  };
  /** The thread ended: its jobs fail, or, when it never started (no script), run here from now on. */
  const stopped = (thread: Worker, started: boolean) => {
    if (worker !== thread) return;
    // A thread ended by stop() did start, as far as its jobs are concerned: they fail.
    const ready = started || ending === thread;
    worker = undefined;
    const unanswered = [...pending.values()];
    pending.clear();
    if (!ready) here ??= mapJobs(folder());
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
    const thread = new Worker(threadUrl(), { resourceLimits, workerData: { dir: folder() } satisfies MapThreadData });
    let ready = false;
    thread.unref();
    thread.on('message', (message: FromMapThread) => {
      if ('ready' in message) return void (ready = true);
      const job = pending.get(message.id);
      pending.delete(message.id);
      if (!pending.size) {
        thread.unref();
        clearTimeout(idle);
        idle = setTimeout(endIdle, idleMs).unref();
      }
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
      clearTimeout(idle);
      worker ??= start();
      const id = nextId++;
      pending.set(id, { job, resolve, reject });
      worker.ref();
      // A map's text is copied to the thread (a structured clone: no parsing here); compressed bytes
      // on a larger buffer (a pooled one) are copied alone first, as a clone copies a view's whole buffer.
      if (job.type == 'index' && typeof job.text != 'string' && job.text.byteLength != job.text.buffer.byteLength) job = { ...job, text: job.text.slice() };
      worker.postMessage({ id, job } satisfies ToMapThread);
    });
  return {
    run,
    /** Jobs sent to the thread and not answered. */
    pending: () => pending.size,
    /** Whether jobs run on a thread (false once none could start: they run on this one). */
    threaded: () => here === undefined,
    /** Whether a thread runs now (it ends after idleMs without a job). */
    running: () => worker !== undefined,
    stop,
  };
};

export type MapWorker = ReturnType<typeof createMapWorker>;
