import type { ParseArgsConfig } from 'node:util';
import { EMAIL, normalizeEmail } from '../core/users';
import { parseWithArgument, UsageError } from './args';

/**
 * The options and the one EMAIL of `user remove`, `user reset-password` and `user sign-out`,
 * normalised as users are stored (core/users.ts); anything but one email is a UsageError.
 *
 * @example
 * const { values, email } = parseUserEmail(['Ann@Shop.Example', '--json'], {}, 'user remove'); // email: 'ann@shop.example'
 */
export const parseUserEmail = <O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O, command: string) => {
  const { values, argument } = parseWithArgument(args, options, `EMAIL (the user to ${command})`);
  const email = normalizeEmail(argument);
  if (!EMAIL.test(email)) throw new UsageError(`user ${command} needs the EMAIL of a user, not "${argument}"`);
  return { values, email };
};
