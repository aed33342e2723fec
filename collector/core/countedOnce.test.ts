import { describe, expect, test } from 'vitest';
import { explainedLoads, lessExplainedLoads } from './countedOnce';

const T = Date.UTC(2026, 5, 10, 12);
const load = (url: string, at: number, extra: { page?: string; count?: number; bot?: boolean } = {}) => ({
  source_url: url, page_url: extra.page ?? 'https://shop.example/', received_at: at, count: extra.count ?? 1, bot: extra.bot ?? false,
});
const blocked = (url: string, at: number, page = 'https://shop.example/') => ({
  report_type: 'csp-violation', effective_directive: 'img-src', blocked_uri: url, document_uri: page, received_at: at,
});

describe('explainedLoads', () => {
  test('a load is explained by a violation of its URL on its page within ten minutes either way, URLs compared as the issues link compares them', () => {
    const loads = [
      load('https://cdn.example/a.png', T, { page: 'https://shop.example/#top' }),
      load('https://cdn.example/b.png', T),
      load('https://cdn.example/c.png', T),
      load('https://cdn.example/d.png', T, { page: 'https://shop.example/other' }),
    ];
    const violations = [
      blocked('https://cdn.example:443/a.png', T + 9 * 60_000),
      blocked('https://cdn.example/c.png', T - 11 * 60_000),
      blocked('https://cdn.example/d.png', T),
      { ...blocked('https://cdn.example/b.png', T), effective_directive: undefined },
    ];
    expect(explainedLoads(loads, violations).map((each) => each.source_url)).toEqual(['https://cdn.example/a.png']);
  });

  test('a load without a URL or a page is explained by nothing', () => {
    expect(explainedLoads([{ ...load('', T), source_url: undefined }], [blocked('', T)])).toEqual([]);
  });
});

describe('lessExplainedLoads', () => {
  const DAY = 86_400_000;
  test("takes each explained load's report and occurrences from its bucket from since on, drops emptied buckets, bots' only from rows with bots", () => {
    const day = Math.floor(T / DAY) * DAY;
    const rows = [{ day: day - DAY, reports: 1, count: 1 }, { day, reports: 3, count: 6 }];
    const explained = [load('a', T, { count: 2 }), load('b', day - DAY + 5), load('c', T, { bot: true }), load('d', day - 2 * DAY)];
    expect(lessExplainedLoads('day', rows, explained, { since: day - DAY, withoutBots: true })).toEqual([{ day, reports: 2, count: 4 }]);
    expect(lessExplainedLoads('day', rows, explained, { since: day - DAY, withoutBots: false })).toEqual([{ day, reports: 1, count: 3 }]);
    // Before since: the rows never counted it.
    expect(lessExplainedLoads('day', rows, explained, { since: day - DAY + 10, withoutBots: true })).toEqual([rows[0], { day, reports: 2, count: 4 }]);
    expect(lessExplainedLoads('hour', [{ hour: T, reports: 1, count: 2 }], [load('a', T + 1, { count: 2 })], { since: 0, withoutBots: true })).toEqual([]);
  });
});
