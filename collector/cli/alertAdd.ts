import { DEFAULT_COOLDOWN_MINUTES, RULE_KINDS, ruleParamsProblem, ruleView, VITAL_POOR_METRICS, type AlertChannel, type RuleKind, type RuleParams } from '../core/alerts/rules';
import { databaseLocation, UsageError, withStore } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';

const FORMATS = ['json', 'slack', 'discord'] as const;

/**
 * `sitebeacon alert add --site SITE_KEY --on KIND [--window MIN --factor N | --count N] [--metric M]
 * [--email TO...] [--webhook URL [--format F] [--secret S]] [--cooldown MIN]`: a site's alert rule
 * (docs/alerts.md, "Rules"; its kind's parameters: "Rule kinds"), delivered by every `serve` on the
 * database. The secret is stored and never printed.
 */
export const alertAdd = defineCommand({
  name: ['alert', 'add'],
  summary: "add an alert rule to a site: what it alerts of, by email and/or webhook",
  help:
    'adds an alert rule to the site (see [docs/alerts.md](docs/alerts.md)); a `spike` takes `--window` and `--factor` or `--count`, a `vital_poor` `--metric`; ' +
    'prints the rule with its id, a webhook as `signed` without its secret (`--json`: the rule)',
  flags: {
    site: { type: 'string', required: true, value: 'SITE_KEY', help: 'the site the rule watches' },
    on: { type: 'string', required: true, value: 'KIND', help: `what it alerts of: ${RULE_KINDS.join(', ')}` },
    window: { type: 'string', value: 'MIN', help: "a spike's window, 1 to 1440 minutes" },
    factor: { type: 'string', value: 'N', help: "a spike: the window's occurrences at N times the issue's usual rate (N above 1)" },
    count: { type: 'string', value: 'N', help: "a spike: the window's occurrences at N or more" },
    metric: { type: 'string', value: 'M', help: `vital_poor's metric: ${VITAL_POOR_METRICS.join(', ')}` },
    email: { type: 'string', multiple: true, value: 'TO', help: 'an address to mail (repeat it for each)' },
    webhook: { type: 'string', value: 'URL', help: 'an http(s) URL to post each alert to' },
    format: { type: 'string', value: 'F', help: "the webhook's body: json (default), slack or discord" },
    secret: { type: 'string', value: 'S', help: "signs each webhook request (`Sitebeacon-Signature`); stored, never shown again" },
    cooldown: { type: 'string', value: 'MIN', help: `at most one alert per issue per this many minutes (default ${DEFAULT_COOLDOWN_MINUTES})` },
    ...DATABASE_FLAGS,
  },
  run: async ({ values }, io) => {
    const kind = values.on as RuleKind;
    if (!RULE_KINDS.includes(kind)) throw new UsageError(`--on ${values.on} is not one of ${RULE_KINDS.join(', ')}`);
    const format = (values.format ?? 'json') as (typeof FORMATS)[number];
    if (!FORMATS.includes(format)) throw new UsageError(`--format ${values.format} is not one of ${FORMATS.join(', ')}`);
    if ((values.format || values.secret) && !values.webhook) throw new UsageError('--format and --secret go with --webhook');
    const number = (flag: 'window' | 'factor' | 'count') => (values[flag] === undefined ? undefined : Number(values[flag]));
    const params: RuleParams = { window_minutes: number('window'), factor: number('factor'), count: number('count'), metric: values.metric };
    const problem = ruleParamsProblem(kind, params);
    if (problem) throw new UsageError(problem.replace(/\bwindow_minutes\b/, '--window').replace(/\b(factor|count|metric)\b/g, '--$1'));
    const cooldown = Number(values.cooldown ?? DEFAULT_COOLDOWN_MINUTES);
    if (!Number.isInteger(cooldown) || cooldown < 0 || cooldown > 525_600) throw new UsageError(`--cooldown ${values.cooldown} is not a number of minutes`);
    const channels: AlertChannel[] = (values.email ?? []).map((to) => {
      if (!/^[^\s@]+@[^\s@]+$/.test(to)) throw new UsageError(`--email ${to} is not an email address`);
      return { type: 'email', to };
    });
    if (values.webhook) {
      const url = URL.canParse(values.webhook) ? new URL(values.webhook) : undefined;
      if (url?.protocol != 'http:' && url?.protocol != 'https:') throw new UsageError(`--webhook ${values.webhook} is not an http(s) URL`);
      channels.push({ type: 'webhook', url: url.href, format, ...(values.secret ? { secret: values.secret } : {}) });
    }
    if (!channels.length) throw new UsageError('give --email TO or --webhook URL: a rule needs somewhere to send');
    const rule = await withStore(databaseLocation(values, io), (store) => store.alerts.addRule(values.site!, { kind, channels, cooldown_minutes: cooldown, ...params }));
    const view = ruleView(rule);
    if (values.json) io.out(JSON.stringify(view));
    else io.out(`Added alert rule ${view.id} to site ${view.site_key}: ${view.kind} -> ${view.channels.map((channel) => (channel.type == 'email' ? channel.to : `${channel.url} (${channel.format}${channel.signed ? ', signed' : ''})`)).join(', ')}, cooldown ${view.cooldown_minutes} min.`);
  },
});
