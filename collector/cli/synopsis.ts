import type { AnyCommand, Flag } from './defineCommand';

/** Flags every command takes, listed once under the command table rather than in each synopsis. */
const COMMON = new Set(['db', 'database-url', 'json', 'help']);

/** Beyond this many optional flags a synopsis says `[options]`, and the flags get a table of their own. */
const MOST_FLAGS_LISTED = 6;

/**
 * A flag as a synopsis and the help show it: `--port N`, `--demo`; `--origin URL [--origin URL...]`
 * for one that is required and repeats.
 *
 * @example
 * flagSynopsis('port', { type: 'string', value: 'N', help: '…' }) // '[--port N]'
 */
export const flagSynopsis = (name: string, flag: Flag, { bare = false } = {}) => {
  const text = `--${name}${flag.type == 'string' ? ` ${flag.value ?? 'VALUE'}` : ''}`;
  if (bare) return text;
  if (flag.required) return flag.multiple ? `${text} [${text}...]` : text;
  return flag.multiple ? `[${text}...]` : `[${text}]`;
};

/** The command's own optional flags (not those every command takes). */
const optionalFlags = (spec: AnyCommand) => Object.entries(spec.flags as Record<string, Flag>).filter(([name, flag]) => !COMMON.has(name) && !flag.required);

/**
 * Whether the command has too many flags to list in its synopsis: its flags get a table of their own.
 *
 * @example
 * hasSettingsTable(serve) // true
 */
export const hasSettingsTable = (spec: AnyCommand) => optionalFlags(spec).length > MOST_FLAGS_LISTED;

/**
 * How the command is called, without `sitebeacon `: its words, arguments, required flags, then
 * its optional flags (or `[options]` when there are many of them).
 *
 * @example
 * synopsis(keyCreate) // 'key create [--site SITE_KEY] [--name NAME]'
 */
export const synopsis = (spec: AnyCommand) => {
  const flags = Object.entries(spec.flags as Record<string, Flag>).filter(([name]) => !COMMON.has(name));
  const required = flags.filter(([, flag]) => flag.required).map(([name, flag]) => flagSynopsis(name, flag));
  const optional = hasSettingsTable(spec) ? ['[options]'] : optionalFlags(spec).map(([name, flag]) => flagSynopsis(name, flag));
  return [...spec.name, ...(spec.args ?? []).map(({ name }) => name), ...required, ...optional].join(' ');
};
