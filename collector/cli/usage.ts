import { COMMANDS } from './commands';
import { DATABASE_FLAGS } from './commonFlags';
import type { AnyCommand } from './defineCommand';
import { synopsis } from './synopsis';
import { terminalText } from './terminalText';

/** Where a command's summary starts in the list. */
const COLUMN = 24;

const listed = (spec: AnyCommand) => {
  const left = synopsis(spec);
  const summary = terminalText(spec.summary, COLUMN);
  return left.length + 2 < COLUMN ? `  ${left.padEnd(COLUMN - 2)}${summary}` : `  ${left}\n${' '.repeat(COLUMN)}${summary}`;
};

/**
 * `sitebeacon --help` (and `sitebeacon help`): every command of the command table (commands.ts),
 * made from their declarations.
 *
 * @example
 * usage(COMMANDS) // 'Usage: sitebeacon <command> [options]\n…'
 */
export const usage = (commands: readonly AnyCommand[]) => `Usage: sitebeacon <command> [options]
       sitebeacon <command> --help   what the command does, and every option it takes
       sitebeacon --version          this sitebeacon's version

Commands:
${commands.map(listed).join('\n')}

${terminalText(
  `Every command but check takes --db FILE (SQLite; default ./data/sitebeacon.db, env ${DATABASE_FLAGS.db.env}) or --database-url URL ` +
    `(PostgreSQL, env ${DATABASE_FLAGS['database-url'].env}), and --json. Every setting of serve has a SITEBEACON_* variable ` +
    '(serve --help names them); a flag wins over its variable.',
  0,
)}
`;

/** `sitebeacon --help`: the usage of this sitebeacon's command table. */
export const USAGE = usage(COMMANDS);
