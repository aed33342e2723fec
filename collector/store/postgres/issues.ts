import { changeIssue } from '../../core/issueLifecycle';
import type { IssueStore } from '../contract/issues';
import { fastListApplies, issueFastListQuery, issuePageCountsQuery, withPageCounts } from '../issueFastList';
import { issueBotReportsQuery } from '../issueBotReports';
import { issueEventPage, issueListPage } from '../issueResults';
import { issueEventsQuery, issueListQuery, issueTagQuery, issueTrendsQuery, TAG_COLUMNS, trendSeries, type BuiltQuery } from '../issueQueries';
import { ISSUE_COLUMNS, issueFromRow, issueValues, type IssueRow } from '../issueRows';
import type { Write } from './groupCommit';
import type { Client, Pool } from './pool';
import { run, toRecord, type Row } from './rows';

const SELECT_ISSUE = 'SELECT * FROM issues WHERE site_key = $1 AND fingerprint = $2';
const UPDATE_ISSUE = `UPDATE issues SET ${ISSUE_COLUMNS.slice(2).map((column, index) => `${column} = $${index + 3}`).join(', ')}
  WHERE site_key = $1 AND fingerprint = $2`;

/**
 * Issues in PostgreSQL (store/contract/issues.ts): the reads are issueQueries.ts' SQL, shared with
 * SQLite, unnamed (a list's filters make many texts); an owner's change runs in the group commit's
 * transaction with the issue's row locked, so an ingest folding reports into it (issueWrites.ts,
 * which locks it too) comes before or after, never between.
 *
 * @example
 * const issues = postgresIssues(pool, write);
 * await issues.update(siteKey, fingerprint, { status: 'resolved', resolved_in: '1.2' });
 */
export const postgresIssues = (pool: Pool, write: Write) => {
  const all = async ({ text, values }: BuiltQuery) => (await run<Row>(pool, text, values)).rows;
  return {
    async list(siteKey, options) {
      // Without a filter on a report's fields, from the per-day counts (docs/issues.md, "The list at a million reports").
      if (!fastListApplies(options)) return issueListPage(await all(issueListQuery('postgres', siteKey, options, Date.now())), options);
      const rows = await all(issueFastListQuery('postgres', siteKey, options, Date.now()));
      const fingerprints = rows.map((row) => String(row.fingerprint));
      const counts = fingerprints.length ? await all(issuePageCountsQuery('postgres', siteKey, fingerprints, options)) : [];
      return issueListPage(withPageCounts(rows, counts), options);
    },
    async get(siteKey, fingerprint) {
      return issueFromRow((await run<IssueRow>(pool, SELECT_ISSUE, [siteKey, fingerprint], 'select_issue')).rows[0]);
    },
    update: (siteKey, fingerprint, change) =>
      write({
        run: async (client: Client) => {
          const state = issueFromRow((await run<IssueRow>(client, `${SELECT_ISSUE} FOR UPDATE`, [siteKey, fingerprint], 'lock_issue')).rows[0]);
          if (!state) return undefined;
          const changed = changeIssue(state, change);
          await run(client, UPDATE_ISSUE, issueValues(siteKey, changed), 'update_issue');
          return changed;
        },
      }),
    async events(siteKey, fingerprint, options) {
      return issueEventPage(await all(issueEventsQuery('postgres', siteKey, fingerprint, options)), options.limit, (row) => toRecord(row));
    },
    async tags(siteKey, fingerprint, options) {
      const tag = async (name: keyof typeof TAG_COLUMNS) => (await all(issueTagQuery('postgres', siteKey, fingerprint, name, options))) as Array<{ value: string; reports: number }>;
      const [browser, os, device, page, release] = await Promise.all([tag('browser'), tag('os'), tag('device'), tag('page'), tag('release')]);
      return { browser, os, device, page, release };
    },
    async botReports(siteKey, options) {
      return Number((await all(issueBotReportsQuery('postgres', siteKey, options, Date.now())))[0]?.reports ?? 0);
    },
    async trends(siteKey, fingerprints, options) {
      const rows = fingerprints.length ? await all(issueTrendsQuery('postgres', siteKey, fingerprints, options)) : [];
      return trendSeries(fingerprints, rows as Parameters<typeof trendSeries>[1], options);
    },
  } satisfies IssueStore;
};
