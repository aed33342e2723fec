import { alertFacts, alertHeadline, type Alert } from './alert';
import { httpUrl, oneLine } from './text';

/** A webhook channel's body format (docs/alerts.md, "Webhooks"). */
export type WebhookFormat = 'json' | 'slack' | 'discord';

/**
 * The `json` format: the alert as the contract gives it, `{ id, kind, site, issue | csp | vital |
 * digest, url, created_at }`, the fields a receiver reads in that order, and `test: true` on a test.
 *
 * @example
 * JSON.parse(jsonBody(alert)).site; // { key: 'shop', name: 'Shop' }
 */
export const jsonBody = (alert: Alert): string => {
  const { id, kind, site, issue, csp, vital, digest, url, created_at } = alert;
  return JSON.stringify({ id, kind, site: { key: site.key, name: site.name }, issue, csp, vital, digest, url, created_at, ...(alert.test ? { test: true } : {}) });
};

// Slack parses &, < and > as markup (`<!channel>` notifies everyone, `<url|text>` is a link), and
// wants only those three escaped (Slack's "Formatting text for app surfaces", "Escaping text").
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
// A link's URL is escaped too, and its `|` would end the URL early.
const slackLink = (url: string, label: string) => `<${slackEscape(url).replace(/\|/g, '%7C')}|${slackEscape(label)}>`;

/**
 * The `slack` format: an incoming webhook's payload, `text` (the notification's fallback, mrkdwn,
 * escaped) and Block Kit `blocks`: a header, the facts as plain text (no markup is parsed in them),
 * the dashboard link. Within Slack's bounds: a header's 150 characters, a section field's 2000 and
 * ten fields per section.
 *
 * @example
 * JSON.parse(slackBody(alert)).text; // 'New issue on Shop: TypeError: x is undefined <https://...|Open in sitebeacon>'
 */
export const slackBody = (alert: Alert): string => {
  const headline = oneLine(alertHeadline(alert), 1000);
  const link = httpUrl(alert.url);
  const facts = alertFacts(alert).map(([label, value]) => ({ type: 'plain_text', text: oneLine(`${label}: ${value}`, 2000), emoji: false }));
  const sections = [];
  for (let start = 0; start < facts.length; start += 10) sections.push({ type: 'section', fields: facts.slice(start, start + 10) });
  const blocks = [
    { type: 'header', text: { type: 'plain_text', text: oneLine(headline, 150), emoji: false } },
    ...sections,
    ...(link ? [{ type: 'section', text: { type: 'mrkdwn', text: slackLink(link, 'Open in sitebeacon') } }] : []),
  ];
  const text = slackEscape(headline) + (link ? ` ${slackLink(link, 'Open in sitebeacon')}` : '');
  return JSON.stringify({ text, blocks });
};

// Discord renders markdown in an embed's title and description: a report's text could otherwise
// make a masked link or a heading. A backslash before a markup character shows it as itself.
const discordEscape = (text: string) => text.replace(/[\\*_~`|>#[\]()<-]/g, '\\$&');

/**
 * The `discord` format: an Execute Webhook payload with one embed (title 256 characters,
 * description 4096, as Discord bounds them) and `allowed_mentions: { parse: [] }`, so that an
 * `@everyone` in a report's message notifies no one.
 *
 * @example
 * JSON.parse(discordBody(alert)).embeds[0].title; // 'New issue on Shop: TypeError: x is undefined'
 */
export const discordBody = (alert: Alert): string => {
  const link = httpUrl(alert.url);
  const title = discordEscape(oneLine(alertHeadline(alert), 200)).slice(0, 256);
  const lines = alertFacts(alert).map(([label, value]) => `**${label}:** ${discordEscape(oneLine(value, 500))}`);
  let description = '';
  for (const line of lines) {
    if (description.length + line.length + 1 > 4000) break;
    description += (description ? '\n' : '') + line;
  }
  const embed = { title, description, ...(link ? { url: link } : {}), timestamp: alert.created_at, color: 0xd93025 };
  return JSON.stringify({ embeds: [embed], allowed_mentions: { parse: [] } });
};

/**
 * The body a webhook channel posts, in its format.
 *
 * @example
 * webhookBody(alert, 'slack');
 */
export const webhookBody = (alert: Alert, format: WebhookFormat): string =>
  format == 'slack' ? slackBody(alert) : format == 'discord' ? discordBody(alert) : jsonBody(alert);
