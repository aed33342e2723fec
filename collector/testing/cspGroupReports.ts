/**
 * CSP reports as stored before csp_groups counted dispositions (docs/csp-reports.md, "Blocked
 * first"), and the groups the migration makes of them: the SQLite (version 19) and PostgreSQL
 * (version 14) migration tests insert the same rows and expect the same groups.
 */
export const CSP_REPORT_COLUMNS = ['site_key', 'received_at', 'report_type', 'effective_directive', 'blocked_host', 'disposition'] as const;

const DAY = 86_400_000;

/** Rows of CSP_REPORT_COLUMNS: two days, both dispositions, one that does not say, and a report that is no violation. */
export const cspReportValues = () => [
  ['shop', 10, 'csp-violation', 'img-src', 'ads.example', 'report'],
  ['shop', 20, 'csp-violation', 'img-src', 'ads.example', 'report'],
  ['shop', 30, 'csp-violation', 'img-src', 'ads.example', null],
  ['shop', 40, 'csp-violation', 'img-src', 'ads.example', 'enforce'],
  ['shop', DAY + 5, 'csp-violation', 'script-src-elem', 'js.payments.example', 'enforce'],
  ['shop', DAY + 6, 'csp-violation', 'script-src-elem', null, 'enforce'],
  ['shop', DAY + 7, 'deprecation', null, null, null],
];

/** csp_groups after the migration, ordered by directive, blocked host, disposition and day. */
export const EXPECTED_CSP_GROUPS = [
  { site_key: 'shop', directive: 'img-src', blocked_host: 'ads.example', disposition: 'enforce', day: 0, reports: 1 },
  { site_key: 'shop', directive: 'img-src', blocked_host: 'ads.example', disposition: 'report', day: 0, reports: 3 },
  { site_key: 'shop', directive: 'script-src-elem', blocked_host: '', disposition: 'enforce', day: 1, reports: 1 },
  { site_key: 'shop', directive: 'script-src-elem', blocked_host: 'js.payments.example', disposition: 'enforce', day: 1, reports: 1 },
];
