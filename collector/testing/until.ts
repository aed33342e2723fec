/**
 * Polls `check` every `everyMs` until it holds, for at most `ms`, then throws naming the check:
 * for what happens on a timer of its own (a delivery, an evaluation, a restarted collector).
 *
 * @example
 * await until(() => hook.requests.length == 1);
 */
export const until = async (check: () => boolean | Promise<boolean>, ms = 5000, everyMs = 50) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${check.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
};
