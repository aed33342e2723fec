import type { AnyCommand, Flag } from './defineCommand';
import { commandFlags } from './parseCommand';
import { flagSynopsis, synopsis } from './synopsis';
import { terminalText } from './terminalText';

/** Where a flag's or an argument's help starts, after its name. */
const COLUMN = 32;

const row = (left: string, markdown: string) =>
  left.length + 2 < COLUMN ? `  ${left.padEnd(COLUMN - 2)}${terminalText(markdown, COLUMN)}` : `  ${left}\n${' '.repeat(COLUMN)}${terminalText(markdown, COLUMN)}`;

/**
 * A flag's help line with its variable, as `--help` says it.
 *
 * @example
 * flagHelp({ type: 'string', env: 'SITEBEACON_PORT', help: 'the port' }) // 'the port (env `SITEBEACON_PORT`)'
 */
export const flagHelp = (flag: Flag) => (flag.env ? `${flag.help} (env \`${flag.env}\`)` : flag.help);

/**
 * `sitebeacon <command> --help`, made from the command's declaration: how it is called, what it
 * does, its arguments and every flag it takes, each with its environment variable.
 *
 * @example
 * io.out(commandHelp(keyRevoke)); // 'Usage: sitebeacon key revoke KEY [options]\n\n…'
 */
export const commandHelp = (spec: AnyCommand) => {
  const parts = [`Usage: sitebeacon ${synopsis(spec)}`, terminalText(spec.help, 0)];
  if (spec.args?.length) parts.push(['Arguments:', ...spec.args.map(({ name, help }) => row(name, help))].join('\n'));
  const flags = Object.entries(commandFlags(spec)).map(([name, flag]) =>
    row(name == 'help' ? '-h, --help' : flagSynopsis(name, flag, { bare: true }), flagHelp(flag)),
  );
  parts.push(['Options:', ...flags].join('\n'));
  return `${parts.join('\n\n')}\n`;
};
