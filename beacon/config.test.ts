import { describe, expect, test } from 'vitest';
import { resolveEndpoints } from './config';

const page = 'https://shop.example';

describe('resolveEndpoints: first match wins (docs/beacon.md, "Endpoint resolution")', () => {
  test('an explicit endpoint beats everything else, for its kind only', () => {
    const endpoints = resolveEndpoints(
      { siteKey: 'k', errorEndpoint: 'https://e.example/errors', apiBase: 'https://a.example/api', ingestOrigin: 'https://i.example' },
      page,
    );
    expect(endpoints.error).toBe('https://e.example/errors');
    expect(endpoints.csp).toBe('https://a.example/api/csp-reports/k');
  });

  test('data-api-base beats data-ingest-origin', () => {
    const endpoints = resolveEndpoints({ siteKey: 'k', apiBase: 'https://a.example/api/', ingestOrigin: 'https://i.example' }, page);
    expect(endpoints).toEqual({
      error: 'https://a.example/api/error-reports/k',
      csp: 'https://a.example/api/csp-reports/k',
      performance: 'https://a.example/api/performance-sessions/k',
    });
  });

  test('data-ingest-origin selects ORIGIN/api', () => {
    expect(resolveEndpoints({ siteKey: 'k', ingestOrigin: 'https://i.example/' }, page).error).toBe(
      'https://i.example/api/error-reports/k',
    );
  });

  test('without any, the page origin is the main host (the build defines no SITEBEACON_APP_URL here)', () => {
    expect(resolveEndpoints({ siteKey: 'k' }, page).performance).toBe('https://shop.example/api/performance-sessions/k');
  });

  test('the site key is encoded into the path', () => {
    expect(resolveEndpoints({ siteKey: 'a/b?c' }, page).error).toBe('https://shop.example/api/error-reports/a%2Fb%3Fc');
  });
});
