/**
 * The processes the suite started and has not stopped yet (by pid; `group` for a process group
 * of its own), killed if the test runner ends first: the cases' own `afterAll` stops them in the
 * normal course, this is for a runner stopped by a signal or an uncaught error.
 */
const started = new Map<number, { group: boolean }>();

const killAll = () => {
  for (const [pid, { group }] of started) {
    try {
      process.kill(group ? -pid : pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  started.clear();
};
process.once('exit', killAll);
// A runner stopped by a signal emits no 'exit': stop ours, then let the signal do what it would have.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killAll();
    process.kill(process.pid, signal);
  });
}

/**
 * Kills `pid` (or its process group) if the runner ends before `forget(pid)`.
 *
 * @example
 * stopOnExit(child.pid!, { group: true });
 * // ...stopped normally:
 * forget(child.pid!);
 */
export const stopOnExit = (pid: number, { group = false } = {}) => void started.set(pid, { group });

/**
 * The process was stopped in the normal course: no longer ours to kill.
 *
 * @example
 * forget(child.pid!);
 */
export const forget = (pid: number) => void started.delete(pid);
