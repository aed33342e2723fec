import { issueDayFill } from '../issueDays';

/**
 * Schema version 8, as the SQLite store's version 13 (sqlite/migrations.ts says what it adds and
 * why): each report's release, environment and parsed client, sessions' too, null for the rows
 * stored before; `issues` filled from the per-day aggregates (the texts of each group's latest
 * day); `site_releases` ordering a site's releases by first arrival (`id`). An issue row's
 * lifecycle columns are nullable so that ingest can lock a new issue's row before it computes it
 * (issueWrites.ts); a committed row always has them.
 */
export const ISSUES_MIGRATION = `
  ALTER TABLE error_reports ADD COLUMN release TEXT;
  ALTER TABLE error_reports ADD COLUMN environment TEXT;
  ALTER TABLE error_reports ADD COLUMN browser TEXT;
  ALTER TABLE error_reports ADD COLUMN os TEXT;
  ALTER TABLE error_reports ADD COLUMN device TEXT;
  ALTER TABLE error_reports ADD COLUMN bot SMALLINT;
  ALTER TABLE performance_sessions ADD COLUMN release TEXT;
  ALTER TABLE performance_sessions ADD COLUMN environment TEXT;
  ALTER TABLE performance_sessions ADD COLUMN device TEXT;
  ALTER TABLE performance_sessions ADD COLUMN bot SMALLINT;
  CREATE TABLE issues (
    site_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    error_type TEXT,
    error_name TEXT,
    error_message TEXT,
    first_seen BIGINT,
    last_seen BIGINT,
    first_release TEXT,
    last_release TEXT,
    status TEXT,
    regressed SMALLINT,
    resolved_in TEXT,
    ignore_until_count BIGINT,
    ignored_occurrences BIGINT,
    ignore_until BIGINT,
    PRIMARY KEY (site_key, fingerprint)
  );
  INSERT INTO issues
    SELECT DISTINCT ON (site_key, fingerprint) site_key, fingerprint, error_type, error_name, error_message,
      MIN(first_seen) OVER (PARTITION BY site_key, fingerprint), MAX(last_seen) OVER (PARTITION BY site_key, fingerprint),
      NULL, NULL, 'unresolved', 0, NULL, NULL, 0, NULL
    FROM error_groups ORDER BY site_key, fingerprint, day DESC;
  CREATE TABLE site_releases (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    site_key TEXT NOT NULL,
    release TEXT NOT NULL,
    first_seen BIGINT NOT NULL,
    UNIQUE (site_key, release)
  );
  CREATE INDEX error_reports_for_issues ON error_reports
    (site_key, received_at, fingerprint, bot, count, visitor, session_id, browser, os, device, release, environment);
`;

/**
 * Schema version 11 (SQLite: 16): the issues' list at a million reports (docs/issues.md, "The
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
 * Schema version 13 (SQLite: 18, where sqlite/issueSchema.ts says what it adds and why): the
 * per-day counts of people's reports by issue and field value, with each issue's distinct visitors
 * of the day, and the visitors each issue had each day; both filled from the stored reports. A
 * value is keyed by its md5: a page URL may be longer than a B-tree entry can be (a crafted
 * collision adds one page's counts to another's, which sending reports of that page does anyway).
 * The index by fingerprint and time holds the fields the list filters by but the page, for the
 * same reason.
 */
export const ISSUE_DAY_COUNTS_MIGRATION = `
  CREATE TABLE issue_visitor_days (
    site_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    day BIGINT NOT NULL,
    visitor TEXT NOT NULL,
    PRIMARY KEY (site_key, fingerprint, day, visitor)
  );
  CREATE TABLE issue_day_counts (
    site_key TEXT NOT NULL,
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    day BIGINT NOT NULL,
    fingerprint TEXT NOT NULL,
    reports BIGINT NOT NULL,
    occurrences BIGINT NOT NULL,
    visitors BIGINT NOT NULL
  );
  CREATE UNIQUE INDEX issue_day_counts_key ON issue_day_counts (site_key, field, md5(value), day, fingerprint);
  CREATE INDEX issue_day_counts_by_day ON issue_day_counts (site_key, day, fingerprint);
  ${issueDayFill('FROM error_reports r WHERE 1 = 1').join(';\n')};
  DROP INDEX error_reports_by_fingerprint_time;
  CREATE INDEX error_reports_by_fingerprint_time ON error_reports
    (site_key, fingerprint, received_at, session_id, visitor, bot, count, browser, os, device, release, environment);
`;
