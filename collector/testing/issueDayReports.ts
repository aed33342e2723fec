const DAY = 86_400_000;

/** Reports stored before the per-day counts of the issues' list, as the migration tests insert them. */
export const STORED_REPORTS = [
  { fingerprint: 'aaaa', received_at: 10 * DAY + 5, visitor: 'v1', browser: 'Chrome', os: 'Windows', device: 'desktop', bot: 0, page_url: '/a', release: '1.0', environment: 'production', count: 2 },
  { fingerprint: 'aaaa', received_at: 10 * DAY + 9, visitor: 'v1', browser: 'Chrome', os: 'Windows', device: 'desktop', bot: 0, page_url: '/b', release: null, environment: 'production', count: null },
  // Stored before clients were parsed: a person's.
  { fingerprint: 'aaaa', received_at: 10 * DAY + 10, visitor: 'v2', browser: null, os: null, device: null, bot: null, page_url: '/a', release: null, environment: null, count: null },
  { fingerprint: 'aaaa', received_at: 10 * DAY + 11, visitor: 'v3', browser: 'Googlebot', os: null, device: 'desktop', bot: 1, page_url: '/a', release: null, environment: null, count: null },
  { fingerprint: 'aaaa', received_at: 11 * DAY + 1, visitor: 'v1', browser: 'Safari', os: 'iOS', device: 'mobile', bot: 0, page_url: '/a', release: null, environment: null, count: null },
  { fingerprint: 'bbbb', received_at: 10 * DAY + 1, visitor: null, browser: 'Chrome', os: null, device: null, bot: 0, page_url: null, release: null, environment: null, count: null },
];

export const REPORT_COLUMNS = ['site_key', 'error_type', 'error_message', 'user_agent', ...Object.keys(STORED_REPORTS[0]!)];

/** Each report's values in REPORT_COLUMNS' order, of site `shop`. */
export const reportValues = () => STORED_REPORTS.map((report) => ['shop', 'javascript_error', 'x', 'Mozilla/5.0', ...Object.values(report)]);

/** What the migration makes of them: the bot's report in no count, null values in no field's row. */
export const EXPECTED_VISITOR_DAYS = [
  { site_key: 'shop', fingerprint: 'aaaa', day: 10, visitor: 'v1' },
  { site_key: 'shop', fingerprint: 'aaaa', day: 10, visitor: 'v2' },
  { site_key: 'shop', fingerprint: 'aaaa', day: 11, visitor: 'v1' },
];

const row = (field: string, value: string, day: number, fingerprint: string, reports: number, occurrences: number, visitors = 0) =>
  ({ site_key: 'shop', field, value, day, fingerprint, reports, occurrences, visitors });

/** Sorted by field, value, day and fingerprint (bytewise). */
export const EXPECTED_DAY_COUNTS = [
  row('', '', 10, 'aaaa', 3, 4, 2),
  row('', '', 10, 'bbbb', 1, 1, 0),
  row('', '', 11, 'aaaa', 1, 1, 1),
  row('browser', 'Chrome', 10, 'aaaa', 2, 3),
  row('browser', 'Chrome', 10, 'bbbb', 1, 1),
  row('browser', 'Safari', 11, 'aaaa', 1, 1),
  row('device', 'desktop', 10, 'aaaa', 2, 3),
  row('device', 'mobile', 11, 'aaaa', 1, 1),
  row('environment', 'production', 10, 'aaaa', 2, 3),
  row('os', 'Windows', 10, 'aaaa', 2, 3),
  row('os', 'iOS', 11, 'aaaa', 1, 1),
  row('page', '/a', 10, 'aaaa', 2, 3),
  row('page', '/a', 11, 'aaaa', 1, 1),
  row('page', '/b', 10, 'aaaa', 1, 1),
  row('release', '1.0', 10, 'aaaa', 1, 2),
];
