import { newPassword } from '../core/passwords';
import { readStdin, UsageError, type CliIO } from './args';
import type { Flag } from './defineCommand';

/** Shorter passwords are refused: a generated one has 20 characters. */
const MIN_PASSWORD = 10;

/** `--password-stdin`, as `user add` and `user reset-password` take it. */
export const PASSWORD_STDIN_FLAG = {
  type: 'boolean',
  help: `the password is the first line of standard input (\`echo PASSWORD | sitebeacon …\`), at least ${MIN_PASSWORD} characters; without it one is generated and printed once`,
} as const satisfies Flag;

/**
 * The password `user add` and `user reset-password` give: the first line of standard input with
 * `--password-stdin` (as `echo PASSWORD | sitebeacon user add ...` or a file gives it), else a
 * generated one, which the command prints once (`generated: true`).
 *
 * @example
 * const { password, generated } = await passwordInput(values['password-stdin'], io);
 */
export const passwordInput = async (fromStdin: boolean | undefined, io: CliIO) => {
  if (!fromStdin) return { password: newPassword(), generated: true };
  const password = (await readStdin(io)).split(/\r?\n/, 1)[0]!;
  if (password.length < MIN_PASSWORD) throw new UsageError(`the password on standard input has fewer than ${MIN_PASSWORD} characters`);
  return { password, generated: false };
};
