import { databaseLocation, UsageError, withStore } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';

/** `sitebeacon alert remove ID --site SITE_KEY`: the rule alerts no more; deliveries already written still go (docs/alerts.md, "The outbox"). */
export const alertRemove = defineCommand({
  name: ['alert', 'remove'],
  summary: "remove a site's alert rule",
  help: "removes the site's alert rule; alerts it already wrote to the outbox are still delivered",
  args: [{ name: 'ID', help: 'the rule id (`alert list`)' }],
  flags: {
    site: { type: 'string', required: true, value: 'SITE_KEY', help: 'the site of the rule' },
    ...DATABASE_FLAGS,
  },
  run: async ({ values, args: [id] }, io) => {
    const ruleId = Number(id);
    if (!Number.isSafeInteger(ruleId) || ruleId < 1) throw new UsageError(`${id} is not a rule id`);
    const removed = await withStore(databaseLocation(values, io), (store) => store.alerts.removeRule(values.site!, ruleId));
    if (!removed) {
      io.err(`sitebeacon: site ${values.site} has no alert rule ${ruleId}`);
      return 1;
    }
    io.out(values.json ? JSON.stringify({ removed: true, id: ruleId }) : `Removed alert rule ${ruleId} of site ${values.site}.`);
  },
});
