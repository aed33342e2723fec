import * as v from 'valibot';
import { DEFAULT_COOLDOWN_MINUTES, ruleParamsProblem, type RuleKind } from '../core/alerts/rules';
import { NO_CONTROL_CHARACTERS } from './fields';

// A rule as the alerts API takes it (docs/alerts.md, "The API"): validated whole, every value bounded,
// unknown fields refused (a misspelt `cooldown_minute` would otherwise be a silent default), and
// the 400 names the field.

/** A rule's channels at most: each test and each alert is one delivery per channel. */
export const MAX_CHANNELS = 10;
/** A cooldown's longest: a year. */
export const MAX_COOLDOWN_MINUTES = 525_600;
const MAX_URL = 2048;
const MAX_SECRET = 256;
const FORMATS = ['json', 'slack', 'discord'] as const;
/** The rule kinds (core/alerts/rules.ts RULE_KINDS), as a tuple a picklist takes. */
const KINDS = ['new_issue', 'regression', 'spike', 'csp_enforced_new', 'vital_poor'] as const satisfies readonly RuleKind[];

const EmailChannelSchema = v.strictObject(
  {
    type: v.literal('email'),
    to: v.pipe(
      v.string('to must be an email address'),
      v.maxLength(254, 'to must be at most 254 characters'),
      // One address: no list, no display name, nothing a mail header could take as more.
      v.email('to must be one email address, like owner@shop.example'),
    ),
  },
  'an email channel is { "type": "email", "to" } and nothing else',
);

const WebhookChannelSchema = v.strictObject(
  {
    type: v.literal('webhook'),
    url: v.pipe(
      v.string('url must be an http(s) URL'),
      v.maxLength(MAX_URL, `url must be at most ${MAX_URL} characters`),
      v.regex(/^https?:\/\/[^\s\x00-\x1f\x7f]+$/i, 'url must be an http(s) URL, with no space or control character'),
      v.check((url) => URL.canParse(url), 'url must be an http(s) URL'),
      v.transform((url) => new URL(url).href),
    ),
    format: v.optional(v.picklist(FORMATS, `format must be one of ${FORMATS.join(', ')}`), 'json'),
    secret: v.optional(
      v.pipe(
        v.string('secret must be a string'),
        v.minLength(1, 'secret must not be empty (leave it out for unsigned requests)'),
        v.maxLength(MAX_SECRET, `secret must be at most ${MAX_SECRET} characters`),
        v.regex(NO_CONTROL_CHARACTERS, 'secret must not hold control characters'),
      ),
    ),
  },
  'a webhook channel is { "type": "webhook", "url", "format"?, "secret"? } and nothing else',
);

const finite = (name: string) => v.optional(v.pipe(v.number(`${name} must be a number`), v.finite(`${name} must be a number`)));

/** `POST /api/v1/sites/{site_key}/alerts`: a new rule, with its kind's parameters (core/alerts/rules.ts ruleParamsProblem). */
export const AlertRuleInputSchema = v.pipe(
  v.strictObject(
    {
      kind: v.picklist(KINDS, `kind must be one of ${KINDS.join(', ')}`),
      channels: v.pipe(
        v.array(
          v.variant('type', [EmailChannelSchema, WebhookChannelSchema], 'a channel\'s type must be "email" or "webhook"'),
          'channels must be an array of channels',
        ),
        v.minLength(1, 'channels must name at least one channel'),
        v.maxLength(MAX_CHANNELS, `channels must be at most ${MAX_CHANNELS}`),
      ),
      cooldown_minutes: v.optional(
        v.pipe(
          v.number('cooldown_minutes must be a number'),
          v.integer('cooldown_minutes must be whole minutes'),
          v.minValue(0, 'cooldown_minutes must be at least 0'),
          v.maxValue(MAX_COOLDOWN_MINUTES, `cooldown_minutes must be at most ${MAX_COOLDOWN_MINUTES} (a year)`),
        ),
        DEFAULT_COOLDOWN_MINUTES,
      ),
      window_minutes: finite('window_minutes'),
      factor: finite('factor'),
      count: finite('count'),
      metric: v.optional(v.pipe(v.string('metric must be a string'), v.maxLength(10, 'metric must be a metric name, like LCP'))),
    },
    'send { kind, window_minutes?, factor?, count?, metric?, channels, cooldown_minutes? } and nothing else',
  ),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const { kind, window_minutes, factor, count, metric } = dataset.value;
    const problem = ruleParamsProblem(kind, { window_minutes, factor, count, metric });
    if (problem) addIssue({ message: problem });
  }),
);

/** `GET .../alerts/deliveries`: how many, newest first (50 unless `limit` says, at most 100). */
export const DeliveriesQuerySchema = v.object({
  limit: v.optional(
    v.pipe(
      v.string('limit must be given once'),
      v.regex(/^\d{1,6}$/, 'limit must be a whole number'),
      v.transform(Number),
      v.minValue(1, 'limit must be at least 1'),
      v.maxValue(100, 'limit must be at most 100'),
    ),
    '50',
  ),
});
