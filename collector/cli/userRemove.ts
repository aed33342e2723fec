import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { revokeAndConfirm } from './revokeAndConfirm';
import { userEmail } from './userEmail';

/**
 * `sitebeacon user remove EMAIL`: the dashboard user and every session of theirs are deleted; their
 * session cookie is refused (401) from the next request on, by every collector sharing the
 * database: sessions are looked up in the store on each request, never cached (http/sessionAuth.ts).
 */
export const userRemove = defineCommand({
  name: ['user', 'remove'],
  summary: 'delete the user; their sessions end from the next request on',
  help: 'deletes the user and every session of theirs: their cookie is refused (401) from the next request on, by every collector on the database (`--json`: `{"removed", "email"}`)',
  args: [{ name: 'EMAIL', help: 'the user to remove' }],
  flags: { ...DATABASE_FLAGS },
  run: ({ values, args: [argument] }, io) => {
    const email = userEmail(argument!, 'remove');
    return revokeAndConfirm(values, io, {
      revoke: (store) => store.users.remove(email),
      notFound: `no user has the email ${email}`,
      json: () => ({ removed: true, email }),
      text: () => `Removed user ${email}: signed out everywhere, and refused from the next request on.`,
    });
  },
});
