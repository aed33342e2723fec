import * as v from 'valibot';
import { ActionSchema } from '../schemas/wordpress';
import { describeIssues } from '../schemas/describeIssues';
import { databaseLocation, parseOptions, UsageError, withStore, type CliIO } from './args';

/** `sitebeacon action add --site SITE_KEY --type TYPE [--payload JSON]`: queued for the WordPress site's next check-in. */
export const actionAdd = async (args: string[], io: CliIO) => {
  const values = parseOptions(args, { site: { type: 'string' }, type: { type: 'string' }, payload: { type: 'string' } });
  const siteKey = values.site;
  if (!siteKey) throw new UsageError('action add needs --site SITE_KEY');
  let payload: unknown;
  try {
    payload = values.payload === undefined ? undefined : JSON.parse(values.payload);
  } catch {
    throw new UsageError('--payload is not JSON');
  }
  const parsed = v.safeParse(ActionSchema, { type: values.type, payload });
  if (!parsed.success) throw new UsageError(describeIssues(parsed.issues));
  const action = await withStore(databaseLocation(values, io), async (store) => {
    if (!(await store.sites.get(siteKey))) throw new Error(`no site has the key "${siteKey}"`);
    return store.actions.add(siteKey, parsed.output);
  });
  io.out(values.json ? JSON.stringify(action) : `Queued action ${action.id} (${action.type}) for site ${action.site_key}`);
};
