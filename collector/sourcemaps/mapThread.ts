import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbage } from './collectGarbage';
import { clearMapFiles } from './mapFiles';
import { mapJobs, type MapJob } from './mapJobs';

/** A message to the map thread: one job and the id its answer carries. */
export interface ToMapThread {
  id: number;
  job: MapJob;
}
/** The thread's answer: the job's, or the message of what it threw. */
export type FromMapThread =
  | { id: number; ok: true; value: ReturnType<ReturnType<typeof mapJobs>['run']> }
  | { id: number; ok: false; message: string }
  | { id: -1; ready: true };

/** What the thread starts with: the folder of its maps' compact forms (mapFiles.ts). */
export interface MapThreadData {
  dir: string;
}

// The source map thread (mapWorker.ts starts it; docs/source-maps.md, "The map thread"): checks and
// compiles maps, keeps their compact forms on disk, and maps frames with them, one job at a time,
// so that the HTTP thread never does. A previous thread's files are its lost cache's: deleted.
const { dir } = workerData as MapThreadData;
clearMapFiles(dir);
const jobs = mapJobs(dir);
// A map's text and parsed JSON (tens of MB) are garbage once it is compiled: collected at once, so
// that the thread's memory goes back to what it was instead of waiting for V8's next collection.
parentPort!.on('message', ({ id, job }: ToMapThread) => {
  let answer: FromMapThread;
  try {
    answer = { id, ok: true, value: jobs.run(job) };
  } catch (error) {
    // The heap refused an allocation: the thread ends, as when it is exhausted (its jobs are 503, mapWorker.ts).
    if (error instanceof RangeError) process.exit(1);
    answer = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer);
  if (job.type == 'check' || job.type == 'index' || (job.type == 'frames' && job.texts.some(([, text]) => text !== null))) collectGarbage();
});
parentPort!.postMessage({ id: -1, ready: true } satisfies FromMapThread);
