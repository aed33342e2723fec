import type { Database } from 'better-sqlite3';
import type { PerformanceSession, ReceiveContext, StoredPerformanceSession } from '../../core/records';
import type { PerformanceSessionStore } from '../contract';
import type { Write } from './groupCommit';
import { insertSql, pagedList, toRow } from './rows';
import { underSite } from './underSite';

const SESSION_COLUMNS = [
  'site_key', 'session_id', 'received_at', 'updated_at', 'user_agent', 'page_url', 'navigation_type',
  'started_at', 'metrics', 'extra',
] as const;

/**
 * Performance sessions in SQLite: one row per session, updated in place, and one row per metric
 * in `performance_metrics` so that the summary's p75 is an indexed query, not a JSON scan.
 */
export const sqlitePerformance = (db: Database, write: Write): Pick<PerformanceSessionStore, 'upsert' | 'list' | 'metricCounts'> => {
  const siteWrite = underSite(db);
  const selectSession = db.prepare<[string, string], { id: number; metrics: string }>(
    'SELECT id, metrics FROM performance_sessions WHERE site_key = ? AND session_id = ?',
  );
  const upsertMetric = db.prepare(
    `INSERT INTO performance_metrics (session_row, site_key, name, value, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (session_row, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const insertSession = db.prepare(insertSql('performance_sessions', SESSION_COLUMNS));
  const updateSession = db.prepare(
    `UPDATE performance_sessions SET updated_at = @updated_at, metrics = @metrics,
       page_url = coalesce(@page_url, page_url), navigation_type = coalesce(@navigation_type, navigation_type),
       started_at = coalesce(@started_at, started_at), extra = coalesce(@extra, extra)
     WHERE site_key = @site_key AND session_id = @session_id`,
  );
  // Counts and the p75 in one pass over the metric's samples in range (performance_metrics_by_time; p75: sqlite/p75.ts).
  const metricCounts = db.prepare<
    [number, number, string, string, number],
    { counts: string }
  >(
    `SELECT metric_counts(value, ?, ?) AS counts
     FROM performance_metrics WHERE site_key = ? AND name = ? AND updated_at >= ?`,
  );

  const upsert = (siteKey: string, session: PerformanceSession, context: ReceiveContext) => {
    const existing = selectSession.get(siteKey, session.session_id);
    const metrics = existing ? { ...JSON.parse(existing.metrics), ...session.metrics } : session.metrics;
    const row = toRow(SESSION_COLUMNS, {
      ...session,
      metrics,
      site_key: siteKey,
      received_at: context.received_at,
      updated_at: context.received_at,
      user_agent: context.user_agent,
    });
    const result = (existing ? updateSession : insertSession).run(row);
    const sessionRow = existing ? existing.id : Number(result.lastInsertRowid);
    for (const [name, metric] of Object.entries(session.metrics)) {
      upsertMetric.run(sessionRow, siteKey, name, metric.value, context.received_at);
    }
  };

  const list = pagedList<StoredPerformanceSession>(db, 'performance_sessions', 'updated_at');
  return {
    upsert: (siteKey, session, context) => write(siteWrite(siteKey, () => upsert(siteKey, session, context))),
    async list(siteKey, options) {
      return list(siteKey, options);
    },
    async metricCounts(siteKey, { name, thresholds: [good, poor], since = 0 }) {
      // JSON text of core/metricCounts.ts's MetricCounts (sqlite/p75.ts).
      return JSON.parse(metricCounts.get(good, poor, siteKey, name, since)!.counts);
    },
  };
};
