import type { Database } from 'better-sqlite3';
import type { RetentionStore } from '../contract/retention';
import { issueDayFill } from '../issueDays';
import { cspGroupDeltas, errorGroupDeltas, type DeletedCsp, type DeletedError } from '../retentionDeltas';
import type { Write } from './groupCommit';

const DAY = 86_400_000;

/**
 * Retention in SQLite: per site and table, the oldest rows before the cutoff (by the
 * (site_key, received_at) and (site_key, updated_at) indexes), deleted in one write of the group
 * commit with their aggregates: counts taken out, emptied groups removed, and `first_seen`
 * recomputed for the one day a batch may leave partly deleted.
 */
export const sqliteRetention = (db: Database, write: Write) => {
  const sites = db.prepare<[], string>('SELECT site_key FROM sites ORDER BY site_key').pluck();
  const oldErrors = db.prepare<[string, number, number], DeletedError & { id: number }>(
    'SELECT id, fingerprint, received_at, count FROM error_reports WHERE site_key = ? AND received_at < ? ORDER BY received_at LIMIT ?',
  );
  const deleteError = db.prepare('DELETE FROM error_reports WHERE id = ?');
  const takeError = db.prepare(
    'UPDATE error_groups SET reports = reports - @reports, count = count - @count WHERE site_key = @site AND fingerprint = @fingerprint AND day = @day',
  );
  const dropError = db.prepare('DELETE FROM error_groups WHERE site_key = @site AND fingerprint = @fingerprint AND day = @day AND reports <= 0');
  const firstSeen = db.prepare(
    `UPDATE error_groups SET first_seen = (
       SELECT MIN(received_at) FROM error_reports
       WHERE site_key = @site AND fingerprint = @fingerprint AND received_at >= @day * ${DAY} AND received_at < (@day + 1) * ${DAY}
     ) WHERE site_key = @site AND fingerprint = @fingerprint AND day = @day`,
  );
  // The issues' list's per-day counts of an issue's day, counted again from its reports left
  // (docs/retention.md): none once the day is gone, the exact counts of a day partly deleted.
  const dropIssueDay = [
    db.prepare('DELETE FROM issue_visitor_days WHERE site_key = @site AND fingerprint = @fingerprint AND day = @day'),
    db.prepare('DELETE FROM issue_day_counts WHERE site_key = @site AND day = @day AND fingerprint = @fingerprint'),
  ];
  const refillIssueDay = issueDayFill(
    `FROM error_reports r INDEXED BY error_reports_by_fingerprint_time
     WHERE r.site_key = @site AND r.fingerprint = @fingerprint AND r.received_at >= @day * ${DAY} AND r.received_at < (@day + 1) * ${DAY}`,
  ).map((sql) => db.prepare(sql));
  const oldCsp = db.prepare<[string, number, number], DeletedCsp & { id: number }>(
    `SELECT id, report_type, effective_directive, blocked_host, disposition, received_at FROM csp_reports
     WHERE site_key = ? AND received_at < ? ORDER BY received_at LIMIT ?`,
  );
  const deleteCsp = db.prepare('DELETE FROM csp_reports WHERE id = ?');
  const takeCsp = db.prepare(
    `UPDATE csp_groups SET reports = reports - @reports
     WHERE site_key = @site AND directive = @directive AND blocked_host = @blocked_host AND disposition = @disposition AND day = @day`,
  );
  const dropCsp = db.prepare(
    'DELETE FROM csp_groups WHERE site_key = @site AND directive = @directive AND blocked_host = @blocked_host AND disposition = @disposition AND day = @day AND reports <= 0',
  );
  const oldSessions = db.prepare<[string, number, number], number>(
    'SELECT id FROM performance_sessions WHERE site_key = ? AND updated_at < ? ORDER BY updated_at LIMIT ?',
  ).pluck();
  const deleteMetrics = db.prepare('DELETE FROM performance_metrics WHERE session_row = ?');
  const deleteSession = db.prepare('DELETE FROM performance_sessions WHERE id = ?');
  // A release's maps go once its reports have (docs/source-maps.md, "Retention"): uploaded before the
  // cutoff, and no report since names their release.
  const deleteMaps = db.prepare(
    `DELETE FROM source_maps WHERE rowid IN (SELECT rowid FROM source_maps AS m WHERE m.uploaded_at < @before AND NOT EXISTS (
       SELECT 1 FROM error_reports AS r WHERE r.site_key = m.site_key AND r.received_at >= @before AND r.release = m.release
     ) LIMIT @limit)`,
  );

  const errors = (site: string, before: number, limit: number) => {
    const rows = oldErrors.all(site, before, limit);
    for (const row of rows) deleteError.run(row.id);
    for (const group of errorGroupDeltas(rows)) {
      const key = { site, fingerprint: group.fingerprint, day: group.day };
      takeError.run({ ...key, reports: group.reports, count: group.count });
      dropError.run(key);
      firstSeen.run(key);
      for (const statement of [...dropIssueDay, ...refillIssueDay]) statement.run(key);
    }
    return rows.length;
  };
  const csp = (site: string, before: number, limit: number) => {
    const rows = oldCsp.all(site, before, limit);
    for (const row of rows) deleteCsp.run(row.id);
    for (const group of cspGroupDeltas(rows)) {
      takeCsp.run({ site, ...group });
      dropCsp.run({ site, directive: group.directive, blocked_host: group.blocked_host, disposition: group.disposition, day: group.day });
    }
    return rows.length;
  };
  const sessions = (site: string, before: number, limit: number) => {
    const ids = oldSessions.all(site, before, limit);
    for (const id of ids) {
      deleteMetrics.run(id);
      deleteSession.run(id);
    }
    return ids.length;
  };

  return {
    async deleteBefore(before, { limit }) {
      let deleted = 0;
      for (const site of sites.all()) {
        for (const table of [errors, csp, sessions]) {
          if (deleted >= limit) return deleted;
          // One write per batch: ingest's group commits go between them.
          deleted += await write(() => table(site, before, limit - deleted));
        }
      }
      if (deleted < limit) deleted += await write(() => deleteMaps.run({ before, limit: limit - deleted }).changes);
      return deleted;
    },
  } satisfies RetentionStore;
};
