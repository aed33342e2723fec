import { DATABASE_FLAGS, HELP_FLAG, JSON_FLAG } from './commonFlags';
import type { AnyCommand, Flag } from './defineCommand';
import { flagSynopsis, hasSettingsTable, synopsis } from './synopsis';

/** A table cell: GitHub's tables end a cell at any `|`, inside `code` too, unless escaped. */
const cell = (markdown: string) => markdown.replaceAll('|', '\\|');

const table = (header: string[], rows: string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)].join('\n');

const flagRows = (flags: Record<string, Flag>) =>
  Object.entries(flags).map(([name, flag]) => [
    `\`${name == 'help' ? '-h, --help' : flagSynopsis(name, flag, { bare: true })}\``,
    flag.env ? `\`${flag.env}\`` : '',
    flag.help,
  ]);

/**
 * The README's CLI tables (README, "The collector"), made from the commands' declarations: one
 * row per command; the flags every command takes; and a table of its own for a command with many
 * settings (`serve`), each with its variable. collector/cli/cliReadme.test.ts fails when the
 * README says otherwise.
 *
 * @example
 * cliReadme(COMMANDS) // '| command | does |\n|---|---|\n| `sitebeacon serve [options]` | …'
 */
export const cliReadme = (commands: readonly AnyCommand[]) => {
  const rows = commands.map((spec) => [
    `\`sitebeacon ${synopsis(spec)}\``,
    hasSettingsTable(spec) ? `${spec.help}; its settings are in the table below` : spec.help,
  ]);
  rows.push(['`sitebeacon --version`', "prints this sitebeacon's version"]);
  rows.push(['`sitebeacon --help`, `sitebeacon COMMAND --help`', "every command, or one command's help and every flag it takes (the command does nothing else)"]);
  const parts = [
    table(['command', 'does'], rows),
    'Every command but `check` takes:',
    table(['flag', 'env', 'does'], flagRows({ ...DATABASE_FLAGS, json: JSON_FLAG, help: HELP_FLAG })),
  ];
  for (const spec of commands.filter(hasSettingsTable)) {
    // A command whose own flags have variables (serve) says where they are set; another only lists them.
    const ownVariables = Object.entries(spec.flags as Record<string, { env?: string }>).some(([name, flag]) => flag.env && !(name in DATABASE_FLAGS));
    parts.push(
      ownVariables
        ? `\`sitebeacon ${spec.name.join(' ')}\`'s settings, each a flag or its variable (a flag wins over its variable; under systemd, \`deploy/sitebeacon.env.example\` sets them):`
        : `\`sitebeacon ${spec.name.join(' ')}\`'s flags:`,
    );
    parts.push(table(['flag', 'env', 'does'], flagRows(spec.flags)));
  }
  return parts.join('\n\n');
};

