import { issueDayFill } from '../issueDays';

/**
 * Schema version 13 (migrations.ts says what it adds and why). `issues` starts from the per-day
 * aggregates: all-time first and last seen of every group, its texts those of its latest day's row
 * (SQLite takes a bare column from the row MAX() picked). Existing reports and sessions keep their
 * new columns null; releases are unknown before this version, so no issue has one yet.
 * `error_reports_for_issues` holds everything the issues' list counts and filters by but the page:
 * its range of a site is read from the index alone, never from the rows (their stacks and
 * messages), where the fingerprint index read every report of the site; issueQueries.ts names it.
 */
export const ISSUES_MIGRATION = `
  ALTER TABLE error_reports ADD COLUMN release TEXT;
  ALTER TABLE error_reports ADD COLUMN environment TEXT;
  ALTER TABLE error_reports ADD COLUMN browser TEXT;
  ALTER TABLE error_reports ADD COLUMN os TEXT;
  ALTER TABLE error_reports ADD COLUMN device TEXT;
  ALTER TABLE error_reports ADD COLUMN bot INTEGER;
  ALTER TABLE performance_sessions ADD COLUMN release TEXT;
  ALTER TABLE performance_sessions ADD COLUMN environment TEXT;
  ALTER TABLE performance_sessions ADD COLUMN device TEXT;
  ALTER TABLE performance_sessions ADD COLUMN bot INTEGER;
  CREATE TABLE issues (
    site_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    error_type TEXT NOT NULL,
    error_name TEXT,
    error_message TEXT NOT NULL,
    first_seen INTEGER NOT NULL,
    last_seen INTEGER NOT NULL,
    first_release TEXT,
    last_release TEXT,
    status TEXT NOT NULL,
    regressed INTEGER NOT NULL,
    resolved_in TEXT,
    ignore_until_count INTEGER,
    ignored_occurrences INTEGER NOT NULL,
    ignore_until INTEGER,
    PRIMARY KEY (site_key, fingerprint)
  ) WITHOUT ROWID;
  INSERT INTO issues
    SELECT site_key, fingerprint, error_type, error_name, error_message, first, last, NULL, NULL, 'unresolved', 0, NULL, NULL, 0, NULL
    FROM (
      SELECT site_key, fingerprint, MAX(day), error_type, error_name, error_message, MIN(first_seen) AS first, MAX(last_seen) AS last
      FROM error_groups GROUP BY site_key, fingerprint
    );
  CREATE TABLE site_releases (
    id INTEGER PRIMARY KEY,
    site_key TEXT NOT NULL,
    release TEXT NOT NULL,
    first_seen INTEGER NOT NULL,
    UNIQUE (site_key, release)
  );
  CREATE INDEX error_reports_for_issues ON error_reports
    (site_key, received_at, fingerprint, bot, count, visitor, session_id, browser, os, device, release, environment);
`;

/**
 * Schema version 16 (PostgreSQL: 11): the issues' list at a million reports (docs/issues.md, "The
 * list at a million reports"). The index by fingerprint and time two columns longer, `bot` and
 * `count`: a page's visitors, page views and trends are counted from it alone, bots left out,
 * without reading a row. And the bots' reports by time, a partial index as small as bots are few:
 * the list counts from the per-day `error_groups`, which count every report, and takes the bots'
 * back out (store/issueFastList.ts).
 */
export const ISSUE_FAST_LIST_MIGRATION = `
  DROP INDEX error_reports_by_fingerprint_time;
  CREATE INDEX error_reports_by_fingerprint_time ON error_reports (site_key, fingerprint, received_at, session_id, visitor, bot, count);
  CREATE INDEX error_reports_of_bots ON error_reports (site_key, received_at, fingerprint, count) WHERE bot = 1;
`;

/**
 * Schema version 18 (PostgreSQL: 13): the issues' list filtered by a report's field, and sorted by
 * visitors, at a million reports (docs/issues.md, "The list at a million reports"). Per UTC day
 * and issue, the reports of people (no known bot) counted in `issue_day_counts`: the issue's own row
 * (field and value '') with its distinct visitors, and one row per value of each field the list
 * filters by (store/issueDays.ts); the visitors each issue had each day in `issue_visitor_days`,
 * what tells ingest whether a visitor is new to the day. Both filled here from the stored reports.
 * `issue_day_counts_by_day` is retention's way to an issue's day (retention.ts). The index by
 * fingerprint and time holds the fields too: a filtered page's visitors, page views and trends
 * are then counted from it alone.
 */
export const ISSUE_DAY_COUNTS_MIGRATION = `
  CREATE TABLE issue_visitor_days (
    site_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    day INTEGER NOT NULL,
    visitor TEXT NOT NULL,
    PRIMARY KEY (site_key, fingerprint, day, visitor)
  ) WITHOUT ROWID;
  CREATE TABLE issue_day_counts (
    site_key TEXT NOT NULL,
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    day INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    reports INTEGER NOT NULL,
    occurrences INTEGER NOT NULL,
    visitors INTEGER NOT NULL,
    PRIMARY KEY (site_key, field, value, day, fingerprint)
  ) WITHOUT ROWID;
  CREATE INDEX issue_day_counts_by_day ON issue_day_counts (site_key, day, fingerprint);
  ${issueDayFill('FROM error_reports r WHERE 1 = 1').join(';\n')};
  DROP INDEX error_reports_by_fingerprint_time;
  CREATE INDEX error_reports_by_fingerprint_time ON error_reports
    (site_key, fingerprint, received_at, session_id, visitor, bot, count, browser, os, device, release, environment, page_url);
`;
