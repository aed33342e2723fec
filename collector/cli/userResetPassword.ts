import { hashPassword } from '../core/passwords';
import { databaseLocation, withStore } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { PASSWORD_STDIN_FLAG, passwordInput } from './passwordInput';
import { shownOnce } from './shownOnce';
import { userEmail } from './userEmail';

/**
 * `sitebeacon user reset-password EMAIL [--password-stdin]`: a new password for the user, who keeps
 * their sites; every session of theirs ends in the same write, so no one stays signed in with the
 * old one (store/contract.ts, UserStore.setPasswordHash). Without `--password-stdin` the password
 * is generated and printed once, as `user add` does; only its scrypt hash is kept.
 */
export const userResetPassword = defineCommand({
  name: ['user', 'reset-password'],
  summary: 'a new password (generated and printed once without --password-stdin); every session ends',
  help:
    'a new password for the user, who keeps their sites; without `--password-stdin` it is generated and printed once, as `user add` does ' +
    '(`--json`: `{"email", "password"}`); every session of the user ends in the same write, so no one stays signed in with the old password',
  args: [{ name: 'EMAIL', help: 'the user' }],
  flags: { 'password-stdin': PASSWORD_STDIN_FLAG, ...DATABASE_FLAGS },
  run: async ({ values, args: [argument] }, io) => {
    const email = userEmail(argument!, 'reset-password');
    const { password, generated } = await passwordInput(values['password-stdin'], io);
    const passwordHash = await hashPassword(password);
    const user = await withStore(databaseLocation(values, io), (store) => store.users.setPasswordHash(email, passwordHash));
    if (!user) throw new Error(`no user has the email ${email}`);
    const shown = generated ? { password } : {};
    if (values.json) {
      io.out(JSON.stringify({ email: user.email, ...shown }));
    } else {
      io.out(`New password for ${user.email}; every session of theirs has ended.` + (generated ? shownOnce(`password: ${password}`, 'scrypt hash') : ''));
    }
  },
});
