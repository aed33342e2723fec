import type { CliIO } from './args';

/**
 * One flag of a command, declared once: the parser, the help text and the README's CLI table
 * are all made from it (docs: README, "The collector").
 */
export interface Flag {
  type: 'string' | 'boolean';
  /** Given more than once, it collects every value (`--origin URL --origin URL`). */
  multiple?: boolean;
  /** The command refuses to run without it (a usage error, exit 2). */
  required?: boolean;
  /** The placeholder its value is shown with in help: `--port N`. */
  value?: string;
  /** The environment variable it is read from when the flag is not given (a flag wins). */
  env?: string;
  /**
   * The command reads `env` itself, in an order of its own (`--db` and `--database-url`: a flag
   * naming one database hides the other's variable); the parser leaves it alone.
   */
  envReadByCommand?: boolean;
  /** One line of help (markdown: `code` and [links](#anchors) are shown as plain text in a terminal). */
  help: string;
}

/** A command's flags, by name without the dashes. */
export type Flags = Record<string, Flag>;

/** A positional argument, always required: `key revoke KEY`. */
export interface Argument {
  name: string;
  help: string;
}

type FlagValue<F extends Flag> = F extends { type: 'boolean' } ? boolean : F extends { multiple: true } ? string[] | undefined : string | undefined;

/** What the parser gives a command for its flags: each flag's value (from the flag or its variable). */
export type FlagValues<F extends Flags> = { -readonly [K in keyof F]: FlagValue<F[K]> } & { json: boolean };

/** A command line parsed against a command's declaration. */
export interface Parsed<F extends Flags> {
  values: FlagValues<F>;
  /** The positional arguments, as many as the declaration names. */
  args: string[];
  /** The words after the command's name, as given (`check` parses them itself). */
  argv: string[];
  /** How the user gave a flag's value, for messages: `--port`, or `SITEBEACON_PORT` when it came from there. */
  source: (flag: keyof F & string) => string;
}

/** A command, declared once: its words, flags, arguments, help and action. */
export interface CommandSpec<F extends Flags = Flags> {
  name: readonly string[];
  /** One line in `sitebeacon --help`. */
  summary: string;
  /** What `sitebeacon <command> --help` and the README's table say it does (markdown). */
  help: string;
  args?: readonly Argument[];
  flags: F;
  /** Resolves to the exit code, or to nothing for 0. */
  run: (parsed: Parsed<F>, io: CliIO) => Promise<number | void>;
}

/** Any command of the table, whatever its flags (its action takes what parseCommand made from them). */
export type AnyCommand = Omit<CommandSpec, 'run'> & { run: (parsed: any, io: CliIO) => Promise<number | void> };

/**
 * Declares a command: the identity, typed so that `run` sees its own flags' values.
 *
 * @example
 * export const migrate = defineCommand({
 *   name: ['migrate'], summary: 'apply the schema versions the database lacks', help: '…',
 *   flags: { ...DATABASE_FLAGS },
 *   run: async ({ values }, io) => { io.out(databaseLocation(values, io)); },
 * });
 */
export const defineCommand = <const F extends Flags>(spec: CommandSpec<F>) => spec;
