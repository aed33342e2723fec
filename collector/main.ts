import { UsageError, type CliIO } from './cli/args';
import { commandHelp } from './cli/commandHelp';
import { COMMANDS } from './cli/commands';
import type { AnyCommand } from './cli/defineCommand';
import { packageVersion } from './cli/packageVersion';
import { asksForHelp, parseCommand } from './cli/parseCommand';
import { synopsis } from './cli/synopsis';
import { USAGE } from './cli/usage';

export { USAGE } from './cli/usage';
export type { CliIO } from './cli/args';

/** The command the words name, from the command table (cli/commands.ts). */
const findCommand = (words: string[]) => COMMANDS.find(({ name }) => name.every((word, index) => words[index] == word));

/**
 * Runs one `sitebeacon` command from the command table (cli/commands.ts). Resolves to the exit
 * code: 0, 1 for a failure, 2 for a usage mistake (or the command's own, for `check`).
 * `--help` on any command prints its help and does nothing else; `--version` prints the package's.
 *
 * @example
 * await main(['site', 'add', '--origin', 'https://shop.example', '--json']);
 */
export const main = async (
  argv: string[],
  io: CliIO = { out: (line) => console.log(line), err: (line) => console.error(line), env: process.env },
): Promise<number> => {
  if (argv[0] == '--version' || argv[0] == '-v') {
    io.out(packageVersion());
    return 0;
  }
  if (!argv.length || ['--help', '-h'].includes(argv[0]!) || (argv[0] == 'help' && argv.length == 1)) {
    io.out(USAGE);
    return 0;
  }
  // `sitebeacon help site add` is `sitebeacon site add --help`.
  const helpFor = argv[0] == 'help' ? findCommand(argv.slice(1)) : undefined;
  if (helpFor) {
    io.out(commandHelp(helpFor));
    return 0;
  }
  const command: AnyCommand | undefined = findCommand(argv);
  try {
    if (!command) throw new UsageError(`unknown command "${argv.join(' ')}"`);
    const words = argv.slice(command.name.length);
    if (asksForHelp(command, words)) {
      io.out(commandHelp(command));
      return 0;
    }
    return (await command.run(parseCommand(command, words, io), io)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      // The command's synopsis, not its whole help: the message stays on the screen.
      const usage = command ? `Usage: sitebeacon ${synopsis(command)}\n(sitebeacon ${command.name.join(' ')} --help: what it does and every option)` : USAGE;
      io.err(`sitebeacon: ${error.message}\n\n${usage}`);
      return 2;
    }
    io.err(`sitebeacon: ${(error as Error).message}`);
    return 1;
  }
};
