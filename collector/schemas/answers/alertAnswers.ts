import * as v from 'valibot';
import { RULE_KINDS } from '../../core/alerts/rules';
import { CountSchema, IsoTimeSchema } from './isoTime';

// The alerts API's answers (docs/alerts.md, "The API"). A webhook's secret is never among them.

const kind = v.picklist(RULE_KINDS as unknown as ['new_issue', 'regression', 'spike', 'csp_enforced_new', 'vital_poor']);
const email = v.object({ type: v.literal('email'), to: v.string() });

/** A rule as read back: a webhook says `signed`, never its secret. */
export const AlertRuleSchema = v.object({
  id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  kind,
  channels: v.array(
    v.variant('type', [
      email,
      v.object({
        type: v.literal('webhook'),
        url: v.pipe(v.string(), v.description("The URL; to a site-scoped API key only its origin and '/…' (a chat service's URL is its credential)")),
        format: v.picklist(['json', 'slack', 'discord']),
        signed: v.pipe(v.boolean(), v.description('Whether requests carry Sitebeacon-Signature (a secret is stored)')),
      }),
    ]),
  ),
  cooldown_minutes: CountSchema,
  window_minutes: v.optional(v.pipe(v.number(), v.description("A spike's window"))),
  factor: v.optional(v.pipe(v.number(), v.description("A spike's factor over the issue's usual rate"))),
  count: v.optional(v.pipe(v.number(), v.description("A spike's occurrences in the window"))),
  metric: v.optional(v.pipe(v.string(), v.description("vital_poor's metric"))),
  created_at: IsoTimeSchema,
});

/** `GET .../alerts`: the site's rules, oldest first. */
export const AlertRuleListSchema = v.object({ data: v.array(AlertRuleSchema) });

const channel = v.variant('type', [email, v.object({ type: v.literal('webhook'), url: v.string() })]);

/** `POST .../alerts/{id}/test`: what each channel's one try came to, in the rule's order. */
export const AlertTestSchema = v.object({
  rule_id: v.number(),
  deliveries: v.array(
    v.object({
      alert_id: v.string(),
      channel,
      status: v.picklist(['sent', 'failed']),
      error: v.pipe(v.nullable(v.string()), v.description('Why it failed: an HTTP status, an SMTP reply, a refused target...')),
    }),
  ),
});

/** `GET .../alerts/deliveries`: the site's latest deliveries, newest first. */
export const DeliveryListSchema = v.object({
  data: v.array(
    v.object({
      alert_id: v.pipe(v.string(), v.description('The idempotency key: Sitebeacon-Delivery, the mail\'s Message-ID')),
      rule: v.pipe(v.string(), v.description("The rule's id, `default:new_issue` or `default:regression` (built in), or `digest`")),
      test: v.pipe(v.boolean(), v.description('Sent by "Send a test"')),
      kind: v.picklist([...RULE_KINDS, 'digest'] as ['new_issue', 'regression', 'spike', 'csp_enforced_new', 'vital_poor', 'digest']),
      channel,
      status: v.pipe(v.picklist(['pending', 'sent', 'retrying', 'failed', 'digested']), v.description('pending: not tried yet; digested: sent within a digest')),
      tries: CountSchema,
      last_error: v.nullable(v.string()),
      next_attempt_at: v.pipe(v.nullable(IsoTimeSchema), v.description('A retrying delivery\'s next try')),
      created_at: IsoTimeSchema,
      sent_at: v.nullable(IsoTimeSchema),
    }),
  ),
});
