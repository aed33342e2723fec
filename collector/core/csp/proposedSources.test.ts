import { expect, test } from 'vitest';
import { classifySource } from './classifySource';
import { proposedSources } from './proposedSources';
import type { Evidence } from './suggestPolicy';

const row = (directive: string, blocked_uri: string, reports = 1, document_uri = 'https://shop.example/'): Evidence => ({ directive, blocked_uri, document_uri, reports });

test('the sources a suggestion would add, in the directive violated, with the groups behind each; never one the base allows or a broad one', () => {
  expect(
    proposedSources("default-src 'self'; script-src 'self'", [
      row('frame-src', 'https://player.example/e/1', 3),
      row('script-src-elem', 'https://js.pay.example/v3', 5),
      row('script-src-elem', 'https://js.pay.example:443/v2', 1),
      row('img-src', 'https://shop.example/logo.png', 9),
      row('img-src', 'data:image/png;base64,AA', 9),
      row('script-src-elem', 'inline', 9),
      row('frame-ancestors', 'https://evil.example', 9),
    ]),
  ).toEqual([
    { directive: 'script-src', source: 'https://js.pay.example', reports: 6, groups: [{ directive: 'script-src-elem', blocked_host: 'js.pay.example' }, { directive: 'script-src-elem', blocked_host: 'js.pay.example' }] },
    { directive: 'frame-src', source: 'https://player.example', reports: 3, groups: [{ directive: 'frame-src', blocked_host: 'player.example' }] },
  ]);
});

test("a source's class: the site's own domain, likely injected from few clients and under 5% of a site's visitors, a third party otherwise", () => {
  const site = { siteOrigins: ['https://www.shop.example'], siteVisitors: 400 };
  expect(classifySource({ ...site, source: "'self'", visitors: 0, visitorsShare: 0 })).toBe('own');
  expect(classifySource({ ...site, source: 'https://cdn.shop.example', visitors: 1, visitorsShare: 0.0025 })).toBe('own');
  expect(classifySource({ ...site, source: 'https://js.pay.example', visitors: 160, visitorsShare: 0.4 })).toBe('third_party');
  expect(classifySource({ ...site, source: 'https://inject.example', visitors: 2, visitorsShare: 0.005 })).toBe('likely_injected');
  // A checkout's payment provider: few of the site's visitors, but many clients.
  expect(classifySource({ ...site, source: 'https://js.pay.example', visitors: 12, visitorsShare: 0.03 })).toBe('third_party');
  // Too few visitors to judge by share.
  expect(classifySource({ ...site, siteVisitors: 3, source: 'https://inject.example', visitors: 1, visitorsShare: 0.01 })).toBe('third_party');
});
