import type { ResolvedAddress, Resolver } from '../connection/resolveHost';
import { runCheck } from '../runCheck';

/**
 * A resolver that knows only `names` (to 127.0.0.1 unless given) and answers ENOTFOUND for the
 * rest, as getaddrinfo does: DNS failures are tested without the network.
 */
export const fakeResolver =
  (names: Record<string, string>): Resolver =>
  async (hostname) => {
    const address = names[hostname];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    return [{ address, family: address.includes(':') ? 6 : 4 } satisfies ResolvedAddress];
  };

/**
 * Runs `sitebeacon check ARGS` in-process; resolves with the exit code, the printed lines, the
 * `--json` step objects (when asked) and how long the run took.
 *
 * @example
 * const result = await runCheckForTest(['https://collector.test:8443/api', '--ca', rootCa], { resolver });
 */
export const runCheckForTest = async (
  argv: string[],
  { resolver = fakeResolver({ 'collector.test': '127.0.0.1' }), env = {} }: { resolver?: Resolver; env?: Record<string, string | undefined> } = {},
) => {
  const out: string[] = [];
  const err: string[] = [];
  const started = performance.now();
  const code = await runCheck({ argv, env, resolver }, { out: (line) => out.push(line), err: (line) => err.push(line) });
  const ms = performance.now() - started;
  const steps = argv.includes('--json') ? out.map((line) => JSON.parse(line) as { step: string; ok: boolean; ms: number; detail: string }) : [];
  return { code, out: out.join('\n'), err: err.join('\n'), lines: out, steps, ms };
};
