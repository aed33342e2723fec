import { expect, test } from 'vitest';
import { apiPath } from './apiPath';

test('a path from its route template: parameters encoded, query parameters in order, undefined ones left out', () => {
  expect(apiPath('/api/v1/sites', {})).toBe('/api/v1/sites');
  expect(apiPath('/api/v1/sites/:site_key/daily', { site_key: 'a/b?c' }, { since: '2026-06-03T12:00:00.000Z', p75: false })).toBe(
    '/api/v1/sites/a%2Fb%3Fc/daily?since=2026-06-03T12%3A00%3A00.000Z&p75=false',
  );
  expect(apiPath('/api/v1/sites/:site_key/error-groups/:fingerprint', { site_key: 'k', fingerprint: 'f 1' }, { since: undefined })).toBe(
    '/api/v1/sites/k/error-groups/f%201',
  );
});

test('only declared reads, with their parameters and query names, compile', () => {
  const paths = () => [
    // @ts-expect-error: no such read in the route table
    apiPath('/api/v1/sites/:site_key/nothing', { site_key: 'k' }),
    // @ts-expect-error: the site key is missing
    apiPath('/api/v1/sites/:site_key/daily', {}),
    // @ts-expect-error: the daily view has no `limit`
    apiPath('/api/v1/sites/:site_key/daily', { site_key: 'k' }, { limit: 5 }),
  ];
  expect(paths).toBeTypeOf('function');
});
