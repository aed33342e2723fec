import { UsageError, type CliIO } from './cli/args';
import { COMMANDS } from './cli/commands';
import { USAGE } from './cli/usage';

export { USAGE } from './cli/usage';
export type { CliIO } from './cli/args';

/**
 * Runs one `sitebeacon` command from the command table (cli/commands.ts). Resolves to the exit
 * code: 0, 1 for a failure, 2 for a usage mistake (or the command's own, for `check`).
 *
 * @example
 * await main(['site', 'add', '--origin', 'https://shop.example', '--json']);
 */
export const main = async (
  argv: string[],
  io: CliIO = { out: (line) => console.log(line), err: (line) => console.error(line), env: process.env },
): Promise<number> => {
  if (!argv.length || ['help', '--help', '-h'].includes(argv[0]!)) {
    io.out(USAGE);
    return 0;
  }
  const command = COMMANDS.find(({ name }) => name.every((word, index) => argv[index] == word));
  try {
    if (!command) throw new UsageError(`unknown command "${argv.join(' ')}"`);
    return (await command.run(argv.slice(command.name.length), io)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`sitebeacon: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.err(`sitebeacon: ${(error as Error).message}`);
    return 1;
  }
};
