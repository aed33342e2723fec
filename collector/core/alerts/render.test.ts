import { describe, expect, test } from 'vitest';
import { alertFacts, alertHeadline, dashboardLink, type Alert } from './alert';
import { emailHtml, emailSubject, emailText, SUBJECT_MAX } from './email';
import { oneLine, truncate } from './text';
import { discordBody, jsonBody, slackBody, webhookBody } from './webhookBody';

const newIssue = (title: string, extra: Partial<Alert['issue']> = {}): Alert => ({
  id: 'al_1',
  kind: 'new_issue',
  site: { key: 'shop', name: 'Shop' },
  issue: { fingerprint: 'ab12', title, page_url: 'https://shop.example/cart', occurrences: 3, ...extra },
  url: dashboardLink('https://beacon.shop.example/', 'shop', 'ab12'),
  created_at: '2026-11-27T19:00:00.000Z',
});

const HOSTILE = 'TypeError: <img src=x onerror="alert(1)"> & \'q\'\r\nBcc: victim@example.com\u202e<!channel> @everyone [click](https://evil.example)';

describe('what an alert says', () => {
  test('each kind has its headline', () => {
    expect(alertHeadline(newIssue('TypeError: x is undefined'))).toBe('New issue on Shop: TypeError: x is undefined');
    expect(alertHeadline({ ...newIssue('E'), kind: 'regression' })).toBe('Regression on Shop: E');
    expect(alertHeadline({ ...newIssue('E', { window_count: 120, window_minutes: 5 }), kind: 'spike' })).toBe('Spike on Shop: E (120 in 5 min)');
    const csp: Alert = { ...newIssue('E'), kind: 'csp_enforced_new', issue: undefined, csp: { directive: 'script-src', blocked_host: 'cdn.evil.example' } };
    expect(alertHeadline(csp)).toBe('New CSP block on Shop: script-src blocked cdn.evil.example');
    const vital: Alert = { ...newIssue('E'), kind: 'vital_poor', issue: undefined, vital: { metric: 'LCP', p75: 4321.4 } };
    expect(alertHeadline(vital)).toBe('Poor LCP on Shop: p75 4321 ms');
    expect(alertHeadline({ ...vital, vital: { metric: 'CLS', p75: 0.314 } })).toBe('Poor CLS on Shop: p75 0.31');
  });

  test('the dashboard link is the issue page under the public URL, its parts encoded', () => {
    expect(dashboardLink('https://b.example/', 'shop', 'ab12')).toBe('https://b.example/sites/shop/errors/ab12');
    expect(dashboardLink('https://b.example', 'a/b', undefined)).toBe('https://b.example/sites/a%2Fb');
  });

  test('facts leave out what is absent and keep the order', () => {
    expect(alertFacts(newIssue('E')).map(([label]) => label)).toEqual(['Site', 'Issue', 'Page', 'Occurrences', 'Created']);
  });
});

describe('text helpers', () => {
  test('oneLine removes CR, LF, other controls and bidi overrides; truncate never splits a surrogate pair', () => {
    expect(oneLine('a\r\nb\tc\u0000d\u2028e\u202ef', 100)).toBe('a b c d e f');
    expect(truncate('😀😀😀', 2)).toBe('😀…');
    expect(oneLine('x'.repeat(50), 10)).toBe('x'.repeat(9) + '…');
  });
});

describe('email', () => {
  test('the subject is [sitebeacon] and the headline', () => {
    expect(emailSubject(newIssue('TypeError: x is undefined'))).toBe('[sitebeacon] New issue on Shop: TypeError: x is undefined');
  });

  test('hostile text cannot add a header to the subject, and the subject is bounded', () => {
    const subject = emailSubject(newIssue(HOSTILE + 'y'.repeat(1000)));
    expect(subject).not.toMatch(/[\r\n\u202e]/);
    expect(subject).toContain('Bcc: victim@example.com');
    expect([...subject].length).toBe(SUBJECT_MAX);
  });

  test('the text body lists the facts and the link, one line each', () => {
    const text = emailText(newIssue(HOSTILE));
    expect(text).toContain('Issue: TypeError: <img src=x onerror="alert(1)"> & \'q\' Bcc: victim@example.com');
    expect(text).toContain('Open in sitebeacon: https://beacon.shop.example/sites/shop/errors/ab12');
    expect(text.split('\n').filter((line) => line.includes('Bcc'))).toHaveLength(2);
    expect(text).not.toMatch(/\r/);
  });

  test('the HTML body escapes everything, links only the dashboard, loads nothing', () => {
    const html = emailHtml(newIssue(HOSTILE, { page_url: 'javascript:alert(1)' }));
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;q&#39;');
    expect([...html.matchAll(/<a /g)]).toHaveLength(1);
    expect(html).toContain('<a href="https://beacon.shop.example/sites/shop/errors/ab12">Open in sitebeacon</a>');
    expect(html).toContain('javascript:alert(1)</td>');
    const tags = new Set([...html.matchAll(/<\/?([a-z0-9!]+)/gi)].map(([, tag]) => tag!.toLowerCase()));
    expect([...tags].sort()).toEqual(['!doctype', 'a', 'body', 'h1', 'head', 'html', 'meta', 'p', 'table', 'td', 'th', 'title', 'tr']);
  });

  test('a dashboard URL that is not http(s) is no link', () => {
    expect(emailHtml({ ...newIssue('E'), url: 'javascript:alert(1)' })).not.toContain('<a ');
    expect(emailText({ ...newIssue('E'), url: 'javascript:alert(1)' })).not.toContain('Open in sitebeacon');
  });
});

describe('webhook bodies', () => {
  test('json is the contract: id, kind, site, the payload, url, created_at', () => {
    const body = JSON.parse(jsonBody(newIssue(HOSTILE)));
    expect(Object.keys(body)).toEqual(['id', 'kind', 'site', 'issue', 'url', 'created_at']);
    expect(body.site).toEqual({ key: 'shop', name: 'Shop' });
    expect(body.issue.title).toBe(HOSTILE);
    expect(webhookBody(newIssue('E'), 'json')).toBe(jsonBody(newIssue('E')));
  });

  test('slack: &, < and > escaped in mrkdwn, report text only as plain text, within Slack bounds', () => {
    const body = JSON.parse(slackBody(newIssue(HOSTILE + 'z'.repeat(3000))));
    expect(body.text).toContain('&lt;!channel&gt;');
    expect(body.text).not.toMatch(/<!channel>|<img/);
    expect(body.text).toMatch(/ <https:\/\/beacon\.shop\.example\/sites\/shop\/errors\/ab12\|Open in sitebeacon>$/);
    const [header, facts, link] = body.blocks;
    expect(header.type).toBe('header');
    expect([...header.text.text].length).toBeLessThanOrEqual(150);
    expect(facts.fields.every((field: { type: string; text: string }) => field.type == 'plain_text' && field.text.length <= 2000)).toBe(true);
    expect(link.text).toEqual({ type: 'mrkdwn', text: '<https://beacon.shop.example/sites/shop/errors/ab12|Open in sitebeacon>' });
  });

  test('slack: a URL cannot end its link early', () => {
    const body = JSON.parse(slackBody({ ...newIssue('E'), url: 'https://b.example/x|y><!here>' }));
    expect(body.blocks.at(-1).text.text).toBe('<https://b.example/x%7Cy%3E%3C!here%3E|Open in sitebeacon>');
  });

  test('discord: no mention parsed, markdown escaped, embed within Discord bounds', () => {
    const body = JSON.parse(discordBody(newIssue(HOSTILE + 'w'.repeat(9000))));
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const [embed] = body.embeds;
    expect(embed.title.length).toBeLessThanOrEqual(256);
    expect(embed.description.length).toBeLessThanOrEqual(4096);
    expect(embed.description).toContain('\\[click\\]\\(https://evil.example\\)');
    expect(embed.url).toBe('https://beacon.shop.example/sites/shop/errors/ab12');
    expect(embed.timestamp).toBe('2026-11-27T19:00:00.000Z');
  });
});
