import { databaseLocation, withStore, type CliIO } from './args';
import { parseUserEmail } from './userEmail';

/**
 * `sitebeacon user remove EMAIL`: the dashboard user and every session of theirs are deleted; their
 * session cookie is refused (401) from the next request on, by every collector sharing the
 * database: sessions are looked up in the store on each request, never cached (http/sessionAuth.ts).
 */
export const userRemove = async (args: string[], io: CliIO) => {
  const { values, email } = parseUserEmail(args, {}, 'remove');
  const removed = await withStore(databaseLocation(values, io), (store) => store.users.remove(email));
  if (!removed) throw new Error(`no user has the email ${email}`);
  io.out(values.json ? JSON.stringify({ removed: true, email }) : `Removed user ${email}: signed out everywhere, and refused from the next request on.`);
};
