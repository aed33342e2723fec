import { describe, expect, test } from 'vitest';
import { changed, issuePaths, issuesPath, issueViewOf, nextPage, pageNumber, previousPage, searchOf } from './issueQuery';

describe('issueViewOf / searchOf: the issues view lives in the URL query', () => {
  test('an empty query is the defaults: 7 days, unresolved, last seen first, no filter, page 1', () => {
    expect(issueViewOf('')).toEqual({ range: '7d', status: 'unresolved', sort: 'last_seen', q: undefined, filters: {}, includeBots: false, cursor: undefined, back: [] });
    expect(searchOf(issueViewOf(''))).toBe('?range=7d');
  });

  test('every part read back as written', () => {
    const search = '?range=24h&status=resolved&sort=visitors&q=cart+empty&page=https%3A%2F%2Fshop.example%2F&os=Android&device=mobile&release=1.2&bots=include&cursor=abc-1&back=x_0';
    const view = issueViewOf(search);
    expect(view).toEqual({
      range: '24h',
      status: 'resolved',
      sort: 'visitors',
      q: 'cart empty',
      filters: { page: 'https://shop.example/', os: 'Android', device: 'mobile', release: '1.2' },
      includeBots: true,
      cursor: 'abc-1',
      back: ['x_0'],
    });
    expect(issueViewOf(searchOf(view))).toEqual(view);
  });

  test('unknown, empty or malformed values fall back to the defaults, never reach the API', () => {
    const view = issueViewOf('?range=1y&status=deleted&sort=title&q=%20%20&os=&device=fridge&bots=yes&cursor=a%2Fb&back=c');
    expect(view).toEqual(issueViewOf(''));
  });

  test('a tab, sort, search or filter starts the list over at page 1', () => {
    const onPage3 = issueViewOf('?range=7d&os=iOS&cursor=c2&back=c1');
    expect(pageNumber(onPage3)).toBe(3);
    expect(searchOf(changed(onPage3, { status: 'ignored' }))).toBe('?range=7d&status=ignored&os=iOS');
  });
});

describe('paging by cursor, both ways, as links', () => {
  test('next then previous comes back to each page', () => {
    const first = issueViewOf('?range=30d');
    const second = nextPage(first, 'c1');
    const third = nextPage(second, 'c2');
    expect([pageNumber(first), pageNumber(second), pageNumber(third)]).toEqual([1, 2, 3]);
    expect(searchOf(third)).toBe('?range=30d&cursor=c2&back=c1');
    expect(previousPage(third)).toEqual(second);
    expect(previousPage(second)).toEqual(first);
    expect(previousPage(first)).toBeUndefined();
  });
});

describe('the read API paths', () => {
  test('the list asks for the tab, search, filters, sort and cursor, over the range', () => {
    const path = issuesPath('3f2a', issueViewOf('?range=24h&q=x&os=Android&sort=occurrences&cursor=c1'));
    const url = new URL(path, 'http://collector');
    expect(url.pathname).toBe('/api/v1/sites/3f2a/issues');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ status: 'unresolved', q: 'x', os: 'Android', sort: 'occurrences', cursor: 'c1' });
    expect(Date.now() - Date.parse(url.searchParams.get('since')!)).toBeLessThanOrEqual(86_400_000 + 60_000);
  });

  test('one issue and its tags take the range and report filters, not the tab, search or page', () => {
    const { issue, tags } = issuePaths('3f2a', '0123456789abcdef', issueViewOf('?range=7d&q=x&browser=Firefox&cursor=c1'));
    for (const path of [issue, tags]) {
      const url = new URL(path, 'http://collector');
      expect([...url.searchParams.keys()].sort()).toEqual(['browser', 'since']);
    }
    expect(tags.startsWith('/api/v1/sites/3f2a/issues/0123456789abcdef/tags?')).toBe(true);
  });

  test('bots=include reaches the list, the issue and its tags; its events are all of its reports, from the first page', () => {
    const view = issueViewOf('?range=7d&bots=include&cursor=c1');
    expect(new URL(issuesPath('3f2a', view), 'http://collector').searchParams.get('bots')).toBe('include');
    const { issue, tags, events } = issuePaths('3f2a', '0123456789abcdef', view);
    for (const path of [issue, tags]) expect(new URL(path, 'http://collector').searchParams.get('bots')).toBe('include');
    expect(events).toBe('/api/v1/sites/3f2a/issues/0123456789abcdef/events?limit=10');
    expect(new URL(issuesPath('3f2a', issueViewOf('?range=7d')), 'http://collector').searchParams.has('bots')).toBe(false);
  });
});
