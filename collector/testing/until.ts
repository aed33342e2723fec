/**
 * Polls `check` every `everyMs` until it holds, for at most `ms`, then throws naming `what` (the
 * check's source by default): for what happens on a timer of its own (a delivery, an evaluation,
 * a restarted collector, a browser's report).
 *
 * @example
 * await until(() => hook.requests.length == 1);
 * await until(async () => (await salts.days()).length == 2, { what: 'the prune after midnight', ms: 10_000 });
 */
export const until = async (
  check: () => boolean | Promise<boolean>,
  { ms = 5000, everyMs = 50, what = check.toString() }: { ms?: number; everyMs?: number; what?: string } = {},
) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
};
