import type { IssueDayDeltas } from '../issueDays';
import type { Client } from './pool';
import { columns } from './rows';

const ADD_VISITORS = `INSERT INTO issue_visitor_days (site_key, fingerprint, day, visitor)
  SELECT * FROM unnest($1::text[], $2::text[], $3::int8[], $4::text[]) ON CONFLICT DO NOTHING
  RETURNING site_key, fingerprint, day`;
const UPSERT_COUNTS = `INSERT INTO issue_day_counts (site_key, field, value, day, fingerprint, reports, occurrences, visitors)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::text[], $6::int8[], $7::int8[], $8::int8[])
  ON CONFLICT (site_key, field, md5(value), day, fingerprint) DO UPDATE SET reports = issue_day_counts.reports + excluded.reports,
    occurrences = issue_day_counts.occurrences + excluded.occurrences, visitors = issue_day_counts.visitors + excluded.visitors`;

/**
 * Writes a batch's per-day counts of the issues' list (store/issueDays.ts; docs/issues.md, "The
 * list at a million reports") in its transaction, as sqlite/issueDayWrites.ts does: the visitors
 * of each issue's day inserted unless there (a row another transaction inserts first is waited
 * for, then not returned), those returned counted as new, then the counts upserted; both in key
 * order, so two collectors lock rows in the same order.
 *
 * @example
 * await writeIssueDays(client, batch.days);
 */
export const writeIssueDays = async (client: Client, deltas: IssueDayDeltas) => {
  if (deltas.visitors.size) {
    const { rows } = await client.query<{ site_key: string; fingerprint: string; day: string }>({
      name: 'add_issue_visitor_days', text: ADD_VISITORS, values: columns(deltas.sortedVisitors(), 4),
    });
    for (const row of rows) deltas.visitorSeen(row.site_key, row.fingerprint, Number(row.day));
  }
  await client.query({ name: 'upsert_issue_day_counts', text: UPSERT_COUNTS, values: columns(deltas.sortedCounts(), 8) });
};
