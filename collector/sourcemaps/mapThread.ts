import { parentPort } from 'node:worker_threads';
import { mapJobs, transferablesOf, type MapJob } from './mapJobs';

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

// The source map thread (mapWorker.ts starts it; docs/source-maps.md, "Limits"): parses, checks and
// keeps maps, and maps frames with them, one job at a time, so that the HTTP thread never does.
const jobs = mapJobs();
parentPort!.on('message', ({ id, job }: ToMapThread) => {
  let answer: FromMapThread;
  try {
    answer = { id, ok: true, value: jobs.run(job) };
  } catch (error) {
    answer = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer, answer.ok ? transferablesOf(answer.value) : []);
});
parentPort!.postMessage({ id: -1, ready: true } satisfies FromMapThread);
