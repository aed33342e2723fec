import { groupDisposition, type CspDisposition } from '../core/cspDisposition';

const DAY = 86_400_000;

/** An error report being deleted, as retention reads it. */
export interface DeletedError {
  fingerprint: string | null;
  received_at: number;
  count: number | null;
}

/** A CSP report being deleted, as retention reads it. */
export interface DeletedCsp {
  report_type: string;
  effective_directive: string | null;
  blocked_host: string | null;
  disposition: string | null;
  received_at: number;
}

/**
 * What deleting `rows` takes out of `error_groups`: per fingerprint and day, the reports and their
 * occurrences, as the insert added them (sqlite/reports.ts, postgres/batch.ts).
 *
 * @example
 * errorGroupDeltas([{ fingerprint: 'f', received_at: 0, count: 3 }]) // [{ fingerprint: 'f', day: 0, reports: 1, count: 3 }]
 */
export const errorGroupDeltas = (rows: DeletedError[]) => {
  const groups = new Map<string, { fingerprint: string; day: number; reports: number; count: number }>();
  for (const row of rows) {
    if (row.fingerprint === null) continue;
    const day = Math.floor(row.received_at / DAY);
    const key = `${row.fingerprint}\n${day}`;
    const group = groups.get(key) ?? { fingerprint: row.fingerprint, day, reports: 0, count: 0 };
    group.reports += 1;
    group.count += row.count ?? 1;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : a.day - b.day));
};

/** What deleting `rows` takes out of `csp_groups`: violations per directive, blocked host, disposition and day. */
export const cspGroupDeltas = (rows: DeletedCsp[]) => {
  const groups = new Map<string, { directive: string; blocked_host: string; disposition: CspDisposition; day: number; reports: number }>();
  for (const row of rows) {
    if (row.report_type != 'csp-violation' || !row.effective_directive) continue;
    const day = Math.floor(row.received_at / DAY);
    const host = row.blocked_host ?? '';
    const disposition = groupDisposition(row.disposition);
    const key = `${row.effective_directive}\n${host}\n${disposition}\n${day}`;
    const group = groups.get(key) ?? { directive: row.effective_directive, blocked_host: host, disposition, day, reports: 0 };
    group.reports += 1;
    groups.set(key, group);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, group]) => group);
};
