import { ruleView } from '../core/alerts/rules';
import { databaseLocation, withStore } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';

/** `sitebeacon alert list --site SITE_KEY`: the site's alert rules (docs/alerts.md, "Rules"), secrets left out. */
export const alertList = defineCommand({
  name: ['alert', 'list'],
  summary: "list a site's alert rules",
  help: "lists the site's alert rules, oldest first, a webhook as `signed` without its secret (`--json`: one rule per line)",
  flags: {
    site: { type: 'string', required: true, value: 'SITE_KEY', help: 'the site' },
    ...DATABASE_FLAGS,
  },
  run: async ({ values }, io) => {
    const rules = await withStore(databaseLocation(values, io), (store) => store.alerts.rules(values.site!), { readOnly: true });
    for (const view of rules.map(ruleView)) {
      if (values.json) io.out(JSON.stringify(view));
      else io.out(`${view.id}\t${view.kind}\t${view.channels.map((channel) => (channel.type == 'email' ? channel.to : channel.url + (channel.signed ? ' (signed)' : ''))).join(', ')}\tcooldown ${view.cooldown_minutes} min`);
    }
  },
});
