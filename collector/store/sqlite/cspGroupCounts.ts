import type { Database } from 'better-sqlite3';
import { groupDisposition, type CspDisposition } from '../../core/cspDisposition';
import { CSP_ROW, type CspRow } from './cspRows';

const DAY = 86_400_000;

/** What a CSP report is counted in csp_groups by. */
export interface CountedCsp {
  report_type: string;
  effective_directive: string | null;
  blocked_host: string | null;
  disposition: string | null;
  received_at: number;
}

/** A transaction's changes to csp_groups: by site, directive, blocked host, disposition and day. */
export type CspGroupDeltas = Map<string, [string, string, string, CspDisposition, number, number]>;

/** What a row about to be stored (or replacing a stored report's fields, received at `receivedAt`) is counted by. */
export const countedOf = (row: CspRow, receivedAt: number): CountedCsp => ({
  report_type: row[CSP_ROW.type] as string,
  effective_directive: row[CSP_ROW.directive] as string | null,
  blocked_host: row[CSP_ROW.blockedHost] as string | null,
  disposition: row[CSP_ROW.disposition] as string | null,
  received_at: receivedAt,
});

/**
 * The per-day CSP groups (`csp_groups`) the writer keeps at insert, folded in memory over a group
 * commit and written once per key at its end. A merged copy whose fields replace a stored report's
 * moves its count (-1 from the group the stored fields named, +1 to the new one's): a browser's
 * report may give another disposition than the beacon's copy (docs/csp-reports.md, "Blocked first").
 *
 * @example
 * const deltas = groups.newGroup();
 * groups.count(deltas, siteKey, countedOf(row, receivedAt), 1);
 * groups.flush(deltas);
 */
export const createCspGroupCounter = (db: Database) => {
  const selectCounted = db.prepare<[number], CountedCsp>(
    'SELECT report_type, effective_directive, blocked_host, disposition, received_at FROM csp_reports WHERE id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO csp_groups (site_key, directive, blocked_host, disposition, day, reports) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (site_key, directive, blocked_host, disposition, day) DO UPDATE SET reports = reports + excluded.reports`,
  );
  const dropEmpty = db.prepare(
    'DELETE FROM csp_groups WHERE site_key = ? AND directive = ? AND blocked_host = ? AND disposition = ? AND day = ? AND reports <= 0',
  );
  return {
    newGroup: (): CspGroupDeltas => new Map(),
    /** The stored report `id` as its group counts it. */
    countedAt: (id: number) => selectCounted.get(id)!,
    /** Adds `delta` to the group of a violation (`report_type` csp-violation with a directive). */
    count(deltas: CspGroupDeltas, siteKey: string, report: CountedCsp, delta: number) {
      if (report.report_type != 'csp-violation' || !report.effective_directive) return;
      const group = [siteKey, report.effective_directive, report.blocked_host ?? '', groupDisposition(report.disposition), Math.floor(report.received_at / DAY)] as const;
      const key = group.join('\n');
      const counted = deltas.get(key);
      if (counted) counted[5] += delta;
      else deltas.set(key, [...group, delta]);
    },
    flush(deltas: CspGroupDeltas) {
      for (const values of deltas.values()) {
        upsert.run(values);
        // A count moved away by a merged copy: a group left at none is gone.
        if (values[5] <= 0) dropEmpty.run(values.slice(0, 5));
      }
    },
  };
};
