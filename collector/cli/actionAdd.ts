import * as v from 'valibot';
import { ActionSchema } from '../schemas/wordpress';
import { describeIssues } from '../schemas/describeIssues';
import { databaseLocation, UsageError, withStore } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';

/** `sitebeacon action add --site SITE_KEY --type TYPE [--payload JSON]`: queued for the WordPress site's next check-in. */
export const actionAdd = defineCommand({
  name: ['action', 'add'],
  summary: "queue an action for a WordPress site's next check-in",
  help: "queues an action for a WordPress site's next check-in",
  flags: {
    site: { type: 'string', value: 'SITE_KEY', required: true, help: 'the WordPress site' },
    type: { type: 'string', value: 'TYPE', required: true, help: 'what the plugin is to do: a lowercase name' },
    payload: { type: 'string', value: 'JSON', help: "the action's parameters, as JSON" },
    ...DATABASE_FLAGS,
  },
  run: async ({ values }, io) => {
    const siteKey = values.site!;
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
  },
});
