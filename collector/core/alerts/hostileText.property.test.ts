import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Alert } from './alert';
import { emailHtml, emailSubject, emailText, SUBJECT_MAX } from './email';
import { discordBody, jsonBody, slackBody } from './webhookBody';

// Whatever a report says (docs/hostile-input.md), no channel's rendering breaks out of its place
// (docs/alerts.md, "What an alert says").
const markup = fc.constantFrom('\r', '\n', '\r\n', '<', '>', '&', '"', "'", '<script>', '</td>', '\u2028', '\u202e', '\u0000', '@everyone', '<!channel>', '[x](y)', '😀', 'é');
const hostile = fc.array(fc.oneof(fc.string(), markup), { maxLength: 30 }).map((parts) => parts.join(''));

const alertWith = (title: string, page: string, site: string): Alert => ({
  id: 'al_p',
  kind: 'new_issue',
  site: { key: 'shop', name: site },
  issue: { fingerprint: 'f', title, page_url: page },
  url: 'https://b.example/sites/shop/errors/f',
  created_at: '2026-11-27T19:00:00.000Z',
});

const TAGS = new Set(['!doctype', 'html', 'head', 'meta', 'title', 'body', 'h1', 'table', 'tr', 'th', 'td', 'p', 'a']);

describe('hostile report text, in every rendering', () => {
  test('the subject is one bounded line; text lines carry no CR; HTML has only its own tags; JSON keeps the text exactly', () => {
    fc.assert(
      fc.property(hostile, hostile, hostile, (title, page, site) => {
        const alert = alertWith(title, page, site);
        const subject = emailSubject(alert);
        expect(subject).not.toMatch(/[\r\n\u0000\u2028\u202e]/);
        expect([...subject].length).toBeLessThanOrEqual(SUBJECT_MAX);
        expect(emailText(alert)).not.toMatch(/[\r\u0000\u2028]/);
        const html = emailHtml(alert);
        const tags = [...html.matchAll(/<\/?([a-z0-9!]+)/gi)].map(([, tag]) => tag!.toLowerCase());
        expect(tags.filter((tag) => !TAGS.has(tag))).toEqual([]);
        expect([...html.matchAll(/<a /g)]).toHaveLength(1);
        expect(JSON.parse(jsonBody(alert)).issue.title).toBe(title);
        // Slack: the only < left is the one link's.
        expect(JSON.parse(slackBody(alert)).text.match(/</g)).toHaveLength(1);
        expect(JSON.parse(discordBody(alert)).allowed_mentions).toEqual({ parse: [] });
      }),
      { seed: 20261127, numRuns: 300 },
    );
  });
});
