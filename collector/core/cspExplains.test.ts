import { describe, expect, test } from 'vitest';
import { COPY_WINDOW_MS } from './cspCopies';
import { explainingViolation } from './cspExplains';

const T = Date.UTC(2026, 10, 27, 12);
const error = { source_url: 'https://ads.example.org/a.js', page_url: 'https://shop.example/cart?step=2', received_at: T };
const violation = (fields: Record<string, unknown> = {}) => ({
  report_type: 'csp-violation',
  effective_directive: 'script-src-elem',
  blocked_uri: 'https://ads.example.org/a.js',
  document_uri: 'https://shop.example/cart?step=2',
  received_at: T + 1_000,
  ...fields,
});

describe('a CSP violation explains a failed load', () => {
  test('its blocked URL on the same page, within the copies window either way; the nearest in time', () => {
    const later = violation({ received_at: T + 60_000 });
    const near = violation({ received_at: T - 2_000, effective_directive: 'script-src' });
    expect(explainingViolation(error, [later, near])).toBe(near);
    expect(explainingViolation(error, [violation({ received_at: T + COPY_WINDOW_MS })])).toBeDefined();
    expect(explainingViolation(error, [violation({ received_at: T - COPY_WINDOW_MS - 1 })])).toBeUndefined();
  });

  test("URLs compared as the same resource: WebKit's :443 and a fragment do not part them; another page, URL, kind or a deprecation report do", () => {
    expect(explainingViolation(error, [violation({ blocked_uri: 'https://ads.example.org:443/a.js' })])).toBeDefined();
    expect(explainingViolation({ ...error, page_url: 'https://shop.example/cart?step=2#pay' }, [violation()])).toBeDefined();
    expect(explainingViolation(error, [violation({ document_uri: 'https://shop.example/' })])).toBeUndefined();
    expect(explainingViolation(error, [violation({ blocked_uri: 'https://ads.example.org/b.js' })])).toBeUndefined();
    expect(explainingViolation(error, [violation({ blocked_uri: 'https://ads.example.org/a.js?v=2' })])).toBeUndefined();
    expect(explainingViolation(error, [violation({ report_type: 'deprecation' })])).toBeUndefined();
    expect(explainingViolation(error, [violation({ effective_directive: undefined })])).toBeUndefined();
    expect(explainingViolation({ ...error, source_url: undefined }, [violation()])).toBeUndefined();
  });

  test("a report-only policy's violation blocked nothing: it explains no failed load; an enforced one, or one that does not say (WebKit's report-uri), does", () => {
    expect(explainingViolation(error, [violation({ disposition: 'report' })])).toBeUndefined();
    expect(explainingViolation(error, [violation({ disposition: 'enforce' })])).toBeDefined();
    expect(explainingViolation(error, [violation({ disposition: null })])).toBeDefined();
    const enforced = violation({ disposition: 'enforce', received_at: T + 5_000 });
    expect(explainingViolation(error, [violation({ disposition: 'report' }), enforced])).toBe(enforced);
  });
});
