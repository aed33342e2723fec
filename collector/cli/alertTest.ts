import { createMailer } from '../alerts/sendEmail';
import { sendTestAlert } from '../alerts/sendTestAlert';
import { databaseLocation, linksFrom, UsageError, withStore } from './args';
import { DATABASE_FLAGS, LINK_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { SERVE_FLAGS } from './serveFlags';

/**
 * `sitebeacon alert test ID --site SITE_KEY`: the rule's "Send a test" (docs/alerts.md, "Sending a
 * test"), sent from this process as `serve` sends alerts: its `--smtp-url`, `--mail-from`,
 * `--allow-private-webhooks` and `--public-url`, or their `SITEBEACON_*` variables. Each try is
 * logged with the deliveries; exit 1 when a channel failed.
 */
export const alertTest = defineCommand({
  name: ['alert', 'test'],
  summary: "send a test alert through each of a rule's channels now",
  help:
    "sends a test alert of the rule's kind to each of its channels now, once, as `serve` would (the same mail and webhook settings and variables), " +
    'prints what came of each, logs them with the deliveries, and exits 1 when one failed (`--json`: the outcome as `POST .../alerts/{id}/test` answers it)',
  args: [{ name: 'ID', help: 'the rule id (`alert list`)' }],
  flags: {
    site: { type: 'string', required: true, value: 'SITE_KEY', help: 'the site of the rule' },
    'smtp-url': SERVE_FLAGS['smtp-url'],
    'mail-from': SERVE_FLAGS['mail-from'],
    'allow-private-webhooks': SERVE_FLAGS['allow-private-webhooks'],
    'public-url': LINK_FLAGS['public-url'],
    ...DATABASE_FLAGS,
  },
  run: async ({ values, args: [id], source }, io) => {
    const ruleId = Number(id);
    if (!Number.isSafeInteger(ruleId) || ruleId < 1) throw new UsageError(`${id} is not a rule id`);
    if (!!values['smtp-url'] != !!values['mail-from']) throw new UsageError('--smtp-url and --mail-from go together');
    const smtpUrl = values['smtp-url'];
    if (smtpUrl && !['smtp:', 'smtps:'].includes(URL.canParse(smtpUrl) ? new URL(smtpUrl).protocol : '')) {
      throw new UsageError(`${source('smtp-url')} is smtp://user:pass@host:port or smtps://...`);
    }
    const mailer = smtpUrl ? createMailer(smtpUrl, values['mail-from']!) : undefined;
    const { appUrl } = linksFrom(values);
    const outcome = await withStore(databaseLocation(values, io), async (store) => {
      const site = await store.sites.get(values.site!);
      const rule = site && (await store.alerts.rules(site.site_key)).find((each) => each.id == ruleId);
      if (!site || !rule) return undefined;
      const allowPrivate = Boolean(values['allow-private-webhooks']);
      return { rule_id: rule.id, deliveries: await sendTestAlert(store, { key: site.site_key, name: site.name }, rule, { mailer, publicUrl: appUrl, webhooks: { allowPrivate } }) };
    });
    mailer?.transporter.close();
    if (!outcome) {
      io.err(`sitebeacon: site ${values.site} has no alert rule ${ruleId}`);
      return 1;
    }
    if (values.json) io.out(JSON.stringify(outcome));
    else {
      for (const { channel, status, error } of outcome.deliveries) {
        io.out(`${status}\t${channel.type == 'email' ? channel.to : channel.url}${error ? `\t${error}` : ''}`);
      }
    }
    return outcome.deliveries.every(({ status }) => status == 'sent') ? 0 : 1;
  },
});
