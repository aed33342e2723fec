import { encodeKeyCursor } from '../core/cursor';
import type { IssueEvent, IssueListOptions, IssueListRow } from './contract/issues';
import { issueFromRow, type IssueRow } from './issueRows';

type Row = Record<string, unknown>;

/**
 * A page of the issues' list from its query's rows (issueQueries.ts asks for one more than
 * `limit`: its presence is what gives a next cursor).
 *
 * @example
 * issueListPage(rows, { sort: 'last_seen', limit: 25, status: 'all' }) // { rows: [...25], next_cursor: 'a2V5Oj...' }
 */
export const issueListPage = (rows: Row[], { sort, limit }: Pick<IssueListOptions, 'sort' | 'limit'>) => {
  const page: IssueListRow[] = rows.slice(0, limit).map((row) => ({
    ...issueFromRow(row as unknown as IssueRow)!,
    reports: Number(row.reports),
    occurrences: Number(row.occurrences),
    visitors: Number(row.visitors),
    page_views: Number(row.page_views),
  }));
  const last = page[page.length - 1];
  return { rows: page, next_cursor: rows.length > limit && last ? encodeKeyCursor(last[sort], last.fingerprint) : null };
};

/**
 * A page of an issue's events from its query's rows (one more than `limit`), each record as the
 * store's `toRecord` shows reports, with the client parsed at ingest (null where it was not).
 */
export const issueEventPage = (rows: Row[], limit: number, toRecord: (row: Row) => Row) => {
  const page = rows.slice(0, limit).map(({ browser, os, device, bot: _bot, ...row }) => ({
    ...(toRecord(row) as unknown as IssueEvent),
    browser: (browser as string | null) ?? null,
    os: (os as string | null) ?? null,
    device: (device as IssueEvent['device']) ?? null,
  }));
  const last = rows[Math.min(limit, rows.length) - 1];
  return {
    rows: page,
    next_cursor: rows.length > limit && last ? encodeKeyCursor(Number(last.received_at), Number(last.id)) : null,
  };
};
