import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { revokeAndConfirm } from './revokeAndConfirm';
import { userEmail } from './userEmail';

/**
 * `sitebeacon user sign-out EMAIL`: ends every session of the user (a lost laptop, a shared
 * browser); their cookies are refused (401) from the next request on, by every collector sharing
 * the database. Their password is unchanged (`user reset-password` changes it and signs out too).
 */
export const userSignOut = defineCommand({
  name: ['user', 'sign-out'],
  summary: 'end every session of the user from the next request on',
  help: 'ends every session of the user (a lost laptop, a shared browser); the password is unchanged (`--json`: `{"email", "sessions_ended"}`)',
  args: [{ name: 'EMAIL', help: 'the user to sign out' }],
  flags: { ...DATABASE_FLAGS },
  run: ({ values, args: [argument] }, io) => {
    const email = userEmail(argument!, 'sign-out');
    return revokeAndConfirm(values, io, {
      // The count of sessions ended, 0 too; undefined when no user has the email.
      revoke: async (store) => {
        const user = await store.users.findByEmail(email);
        return user && (await store.sessions.deleteForUser(user.id));
      },
      notFound: `no user has the email ${email}`,
      json: (ended) => ({ email, sessions_ended: ended }),
      text: (ended) => `Signed ${email} out everywhere: ${ended} session(s) ended.`,
    });
  },
});
