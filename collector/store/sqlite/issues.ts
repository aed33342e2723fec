import type { Database, Statement } from 'better-sqlite3';
import { changeIssue } from '../../core/issueLifecycle';
import type { IssueStore } from '../contract/issues';
import { fastListApplies, issueFastListQuery, issuePageCountsQuery, withPageCounts } from '../issueFastList';
import { issueBotReportsQuery } from '../issueBotReports';
import { issueEventPage, issueListPage } from '../issueResults';
import { issueEventsQuery, issueListQuery, issueTagQuery, issueTrendsQuery, TAG_COLUMNS, trendSeries, type BuiltQuery } from '../issueQueries';
import { ISSUE_COLUMNS, issueFromRow, issueValues, type IssueRow } from '../issueRows';
import type { Write } from './groupCommit';
import { positionalInsertSql, toRecord, type Row } from './rows';

/** Statements by text: a list's filters make a handful of texts, each prepared once. */
const statements = (db: Database) => {
  const prepared = new Map<string, Statement<unknown[], Row>>();
  return ({ text, values }: BuiltQuery) => {
    let statement = prepared.get(text);
    if (!statement) {
      if (prepared.size >= 256) prepared.clear();
      statement = db.prepare<unknown[], Row>(text);
      prepared.set(text, statement);
    }
    return statement.all(...values);
  };
};

/**
 * The issue reads of the SQLite store (store/contract/issues.ts), run on the reader thread
 * (readThread.ts) as the other report reads: the SQL is issueQueries.ts', shared with PostgreSQL.
 *
 * @example
 * const { rows, next_cursor } = await sqliteIssueReads(db).list(siteKey, { status: 'unresolved', sort: 'last_seen', limit: 25 });
 */
export const sqliteIssueReads = (db: Database) => {
  const all = statements(db);
  const selectIssue = db.prepare<[string, string], IssueRow>('SELECT * FROM issues WHERE site_key = ? AND fingerprint = ?');
  return {
    async list(siteKey, options) {
      // Without a filter on a report's fields, from the per-day counts (docs/issues.md, "The list at a million reports").
      if (!fastListApplies(options)) return issueListPage(all(issueListQuery('sqlite', siteKey, options, Date.now())), options);
      const rows = all(issueFastListQuery('sqlite', siteKey, options, Date.now()));
      const fingerprints = rows.map((row) => String(row.fingerprint));
      const counts = fingerprints.length ? all(issuePageCountsQuery('sqlite', siteKey, fingerprints, options)) : [];
      return issueListPage(withPageCounts(rows, counts), options);
    },
    async get(siteKey, fingerprint) {
      return issueFromRow(selectIssue.get(siteKey, fingerprint));
    },
    async events(siteKey, fingerprint, options) {
      return issueEventPage(all(issueEventsQuery('sqlite', siteKey, fingerprint, options)), options.limit, (row) => toRecord(row));
    },
    async tags(siteKey, fingerprint, options) {
      const tag = (name: keyof typeof TAG_COLUMNS) => all(issueTagQuery('sqlite', siteKey, fingerprint, name, options)) as Array<{ value: string; reports: number }>;
      return { browser: tag('browser'), os: tag('os'), device: tag('device'), page: tag('page'), release: tag('release') };
    },
    async botReports(siteKey, options) {
      return Number((all(issueBotReportsQuery('sqlite', siteKey, options, Date.now())))[0]?.reports ?? 0);
    },
    async trends(siteKey, fingerprints, options) {
      const rows = fingerprints.length ? all(issueTrendsQuery('sqlite', siteKey, fingerprints, options)) : [];
      return trendSeries(fingerprints, rows as Parameters<typeof trendSeries>[1], options);
    },
  } satisfies Omit<IssueStore, 'update'>;
};

/**
 * The owner's change of an issue (core/issueLifecycle.ts `changeIssue`), a write of the store's
 * group commit: SQLite's one writer at a time puts it before or after any ingest transaction,
 * which reads the issue's state inside its own.
 */
export const sqliteIssueUpdate = (db: Database, write: Write): IssueStore['update'] => {
  const selectIssue = db.prepare<[string, string], IssueRow>('SELECT * FROM issues WHERE site_key = ? AND fingerprint = ?');
  const replaceIssue = db.prepare(positionalInsertSql('issues', ISSUE_COLUMNS).replace(/^INSERT/, 'INSERT OR REPLACE'));
  return (siteKey, fingerprint, change) =>
    write(() => {
      const state = issueFromRow(selectIssue.get(siteKey, fingerprint));
      if (!state) return undefined;
      const changed = changeIssue(state, change);
      replaceIssue.run(issueValues(siteKey, changed));
      return issueFromRow(selectIssue.get(siteKey, fingerprint));
    });
};
