import type { Database } from 'better-sqlite3';
import { IssueDayDeltas } from '../issueDays';

/**
 * The per-day counts of the issues' list (store/issueDays.ts; docs/issues.md, "The list at a
 * million reports") kept in the writer's transaction: a group commit's reports folded in memory,
 * then each visitor of an issue's day inserted unless already there, a new one counted, and each
 * row of counts upserted once.
 *
 * @example
 * const days = createIssueDayWriter(db);
 * const deltas = days.newGroup();
 * deltas.add(report);
 * days.flush(deltas);
 */
export const createIssueDayWriter = (db: Database) => {
  const addVisitor = db.prepare('INSERT OR IGNORE INTO issue_visitor_days (site_key, fingerprint, day, visitor) VALUES (?, ?, ?, ?)');
  const upsertCounts = db.prepare(
    `INSERT INTO issue_day_counts (site_key, field, value, day, fingerprint, reports, occurrences, visitors) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (site_key, field, value, day, fingerprint) DO UPDATE SET reports = reports + excluded.reports,
       occurrences = occurrences + excluded.occurrences, visitors = visitors + excluded.visitors`,
  );
  return {
    newGroup: () => new IssueDayDeltas(),
    flush(deltas: IssueDayDeltas) {
      for (const [siteKey, fingerprint, day, visitor] of deltas.visitors.values()) {
        if (addVisitor.run(siteKey, fingerprint, day, visitor).changes) deltas.visitorSeen(siteKey, fingerprint, day);
      }
      for (const row of deltas.counts.values()) upsertCounts.run(row);
    },
  };
};
