import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError, type CliIO } from './args';
import { HELP_FLAG, JSON_FLAG } from './commonFlags';
import type { AnyCommand, Flag, Flags, Parsed } from './defineCommand';

/** Every flag a command takes: its own, `--json` (unless it declares its own) and `--help`. */
export const commandFlags = (spec: AnyCommand): Flags => ({ ...spec.flags, json: spec.flags.json ?? JSON_FLAG, help: HELP_FLAG });

const parseArgsOptions = (flags: Flags): NonNullable<ParseArgsConfig['options']> =>
  Object.fromEntries(
    Object.entries(flags).map(([name, flag]) => [name, { type: flag.type, multiple: flag.multiple ?? false, ...(name == 'help' ? { short: 'h' } : {}) }]),
  );

/** The words read as node's parseArgs reads them, unknown options included, as tokens. */
const tokensOf = (argv: string[], flags: Flags) =>
  parseArgs({ args: argv, options: parseArgsOptions(flags), strict: false, allowPositionals: true, tokens: true }).tokens;

/**
 * Whether the words ask for the command's help: `--help` or `-h` anywhere before `--`, and not
 * the value of another flag (`--name --help` names a site "--help"). The command then does nothing else.
 *
 * @example
 * asksForHelp(siteAdd, ['--origin', 'https://shop.example', '--help']) // true
 */
export const asksForHelp = (spec: AnyCommand, argv: string[]) =>
  tokensOf(argv, commandFlags(spec)).some((token) => token.kind == 'option' && token.name == 'help');

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

/** A flag's value from its environment variable; undefined when unset or empty. */
const fromEnv = (flag: Flag, io: CliIO) => {
  const text = io.env[flag.env!];
  if (text === undefined || text === '') return undefined;
  if (flag.type == 'boolean') {
    if (TRUE.includes(text.toLowerCase())) return true;
    if (FALSE.includes(text.toLowerCase())) return false;
    throw new UsageError(`${flag.env}=${text} is neither true nor false (1, true, yes, on / 0, false, no, off)`);
  }
  return flag.multiple ? text.split(',').map((part) => part.trim()).filter(Boolean) : text;
};

/**
 * Reads a command line against the command's declaration (defineCommand.ts): flags (a flag wins
 * over its `SITEBEACON_*` variable), its positional arguments, the flags it cannot run without.
 * Anything else is a UsageError naming what is wrong: an unknown flag by its name.
 *
 * @example
 * const { values, args } = parseCommand(keyRevoke, ['sbk_123', '--json'], io); // args: ['sbk_123'], values.json: true
 */
export const parseCommand = <F extends Flags>(spec: AnyCommand, argv: string[], io: CliIO): Parsed<F> => {
  const flags = commandFlags(spec);
  const command = spec.name.join(' ');
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: parseArgsOptions(flags), strict: true, allowPositionals: true });
  } catch (error) {
    const unknown = tokensOf(argv, flags).find((token) => token.kind == 'option' && !(token.name in flags));
    if (unknown?.kind == 'option') throw new UsageError(`Unknown option ${unknown.rawName}: sitebeacon ${command} has no such flag`);
    throw new UsageError((error as Error).message);
  }
  const values: Record<string, unknown> = { ...parsed.values };
  const fromVariable = new Set<string>();
  for (const [name, flag] of Object.entries(flags)) {
    if (values[name] === undefined && flag.env && !flag.envReadByCommand) {
      values[name] = fromEnv(flag, io);
      if (values[name] !== undefined) fromVariable.add(name);
    }
    if (flag.type == 'boolean') values[name] ??= false;
    const missing = values[name] === undefined || (flag.multiple && !(values[name] as string[]).length);
    if (flag.required && missing) throw new UsageError(`${command} needs ${flag.multiple ? 'at least one ' : ''}--${name} ${flag.value ?? ''}`.trimEnd());
  }
  const expected = spec.args ?? [];
  const given = parsed.positionals;
  if (given.length < expected.length) throw new UsageError(`${command} needs ${expected[given.length]!.name}: ${expected[given.length]!.help}`);
  if (given.length > expected.length) {
    throw new UsageError(expected.length ? `${command} takes one ${expected.map(({ name }) => name).join(' ')}, not ${given.length} arguments` : `${command} takes no argument, not "${given[0]}"`);
  }
  const source = (name: string) => (fromVariable.has(name) ? flags[name]!.env! : `--${name}`);
  return { values: values as Parsed<F>['values'], args: given, argv, source };
};
