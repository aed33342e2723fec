import type * as v from 'valibot';
import type { IssueListSchema } from '../schemas/answers/issueAnswers';
import type { IssueListOptions } from '../store/contract/issues';
import { countedBotReports, countedIssues } from './countedErrors';
import { issueItemOf, issueRangeOf, pageViewsIn, resourceOf, trendsOf, type IssueFilterQuery, type IssueReads } from './issueViews';

/** `GET /api/v1/sites/{site_key}/issues`'s query, as schemas/issueQuery.ts parses it. */
export interface IssueListQuery extends IssueFilterQuery {
  status: IssueListOptions['status'];
  q?: string | undefined;
  type?: string | undefined;
  sort: IssueListOptions['sort'];
  limit: number;
  cursor?: string | undefined;
}

/**
 * `GET /api/v1/sites/{site_key}/issues` (docs/issues.md): one page of the issues with a counted
 * report in the range (last 14 days unless asked), connectivity checks and, unless asked, bots left
 * out (how many bots' reports were, `bot_reports`); each with its title, status, all-time seen times, the range's occurrences, visitors, share of
 * page views and trend.
 *
 * @example
 * const { items, next_cursor } = await readIssues(store, site, { status: 'unresolved', sort: 'last_seen', limit: 25 });
 */
export const readIssues = async (
  store: IssueReads,
  { site_key }: { site_key: string },
  query: IssueListQuery,
  { now = Date.now() }: { now?: number } = {},
): Promise<v.InferInput<typeof IssueListSchema>> => {
  const range = issueRangeOf(query, now);
  const { status, q, type, sort, limit, cursor } = query;
  const { rows, next_cursor } = await countedIssues(store, site_key, { ...range.filter, status, q, type, sort, limit, cursor });
  const [pageViews, { of }, resources, botReports] = await Promise.all([
    pageViewsIn(store, site_key, range),
    trendsOf(store, site_key, rows.map((row) => row.fingerprint), range),
    Promise.all(rows.map((row) => resourceOf(store, site_key, row))),
    countedBotReports(store, site_key, { ...range.filter, status, q, type }),
  ]);
  const items = rows.map((row, index) =>
    issueItemOf(row, { counts: row, pageViews, trend: of(row.fingerprint), resource: resources[index]!, now }),
  );
  return { since: new Date(range.since).toISOString(), until: new Date(range.until).toISOString(), items, next_cursor, bot_reports: botReports };
};
