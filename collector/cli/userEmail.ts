import { EMAIL, normalizeEmail } from '../core/users';
import { UsageError } from './args';

/**
 * The EMAIL argument of `user remove`, `user reset-password` and `user sign-out`, normalised as
 * users are stored (core/users.ts); anything but an email is a UsageError.
 *
 * @example
 * userEmail('Ann@Shop.Example', 'remove') // 'ann@shop.example'
 */
export const userEmail = (argument: string, command: string) => {
  const email = normalizeEmail(argument);
  if (!EMAIL.test(email)) throw new UsageError(`user ${command} needs the EMAIL of a user, not "${argument}"`);
  return email;
};
