import type { CliIO } from '../cli/args';
import { main } from '../main';

/**
 * Runs the `sitebeacon` CLI in-process, as the bin would with `argv`, and collects what it printed:
 * the exit code, standard output and standard error (lines joined by newlines). `io` adds what a
 * command needs beyond that (standard input, a stop signal); the environment is empty unless given.
 *
 * @example
 * const { code, out } = await runCli(['site', 'add', '--origin', 'https://shop.example', '--json', '--db', file]);
 */
export const runCli = async (argv: string[], io: Partial<CliIO> = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line), env: {}, ...io });
  return { code, out: out.join('\n'), err: err.join('\n') };
};
