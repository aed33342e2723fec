/**
 * A CSP violation report's fields, as a browser sends them, for one directive and blocked URI.
 *
 * @example
 * await seed.insertCsp(siteKey, [violation('img-src', 'https://cdn.example/a.png')], now);
 */
export const violation = (directive: string, blocked: string, page = 'https://shop.example/') => ({
  report_type: 'csp-violation',
  document_uri: page,
  effective_directive: directive,
  violated_directive: directive,
  blocked_uri: blocked,
});
