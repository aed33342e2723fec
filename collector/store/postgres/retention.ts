import type { RetentionStore } from '../contract/retention';
import { issueDayFill } from '../issueDays';
import { cspGroupDeltas, errorGroupDeltas, type DeletedCsp, type DeletedError } from '../retentionDeltas';
import type { Client, Pool } from './pool';
import { run } from './rows';

const DAY = 86_400_000;
/** Any constant: one collector at a time runs retention on a database; the others find it taken. */
const RETENTION_LOCK = 0x5174_b3ad;

// $1 site, $2 cutoff (ms), $3 limit: the oldest rows first, by the (site_key, received_at) index.
const DELETE_ERRORS = `DELETE FROM error_reports WHERE id IN (
    SELECT id FROM error_reports WHERE site_key = $1 AND received_at < $2 ORDER BY received_at LIMIT $3
  ) RETURNING fingerprint, received_at, count`;
const TAKE_ERRORS = `UPDATE error_groups AS g SET reports = g.reports - d.reports, count = g.count - d.count
  FROM unnest($2::text[], $3::int8[], $4::int8[], $5::int8[]) AS d (fingerprint, day, reports, count)
  WHERE g.site_key = $1 AND g.fingerprint = d.fingerprint AND g.day = d.day`;
const DROP_ERRORS = `DELETE FROM error_groups AS g USING unnest($2::text[], $3::int8[]) AS d (fingerprint, day)
  WHERE g.site_key = $1 AND g.fingerprint = d.fingerprint AND g.day = d.day AND g.reports <= 0`;
// The one day a batch may leave partly deleted starts later now.
const FIRST_SEEN = `UPDATE error_groups AS g SET first_seen = (
    SELECT min(received_at) FROM error_reports AS r
    WHERE r.site_key = $1 AND r.fingerprint = g.fingerprint AND r.received_at >= g.day * ${DAY} AND r.received_at < (g.day + 1) * ${DAY}
  ) FROM unnest($2::text[], $3::int8[]) AS d (fingerprint, day)
  WHERE g.site_key = $1 AND g.fingerprint = d.fingerprint AND g.day = d.day`;
// The issues' list's per-day counts of the days touched, counted again from their reports left, as
// sqlite/retention.ts does: none once a day is gone, the exact counts of a day partly deleted.
const DAYS = 'unnest($2::text[], $3::int8[]) AS d (fingerprint, day)';
const ISSUE_DAYS = [
  `DELETE FROM issue_visitor_days AS v USING ${DAYS} WHERE v.site_key = $1 AND v.fingerprint = d.fingerprint AND v.day = d.day`,
  `DELETE FROM issue_day_counts AS c USING ${DAYS} WHERE c.site_key = $1 AND c.day = d.day AND c.fingerprint = d.fingerprint`,
  ...issueDayFill(`FROM ${DAYS} JOIN error_reports r ON r.site_key = $1 AND r.fingerprint = d.fingerprint
    AND r.received_at >= d.day * ${DAY} AND r.received_at < (d.day + 1) * ${DAY} WHERE r.site_key = $1`),
];

const DELETE_CSP = `DELETE FROM csp_reports WHERE id IN (
    SELECT id FROM csp_reports WHERE site_key = $1 AND received_at < $2 ORDER BY received_at LIMIT $3
  ) RETURNING report_type, effective_directive, blocked_host, disposition, received_at`;
const TAKE_CSP = `UPDATE csp_groups AS g SET reports = g.reports - d.reports
  FROM unnest($2::text[], $3::text[], $4::text[], $5::int8[], $6::int8[]) AS d (directive, blocked_host, disposition, day, reports)
  WHERE g.site_key = $1 AND g.directive = d.directive AND g.blocked_host = d.blocked_host AND g.disposition = d.disposition AND g.day = d.day`;
const DROP_CSP = `DELETE FROM csp_groups WHERE site_key = $1 AND reports <= 0
  AND (directive, blocked_host, disposition, day) IN (SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::int8[]))`;

// Their performance_metrics rows go with them (ON DELETE CASCADE).
const DELETE_SESSIONS = `DELETE FROM performance_sessions WHERE id IN (
    SELECT id FROM performance_sessions WHERE site_key = $1 AND updated_at < $2 ORDER BY updated_at LIMIT $3
  )`;

type Batch = (client: Client, site: string, before: number, limit: number) => Promise<number>;

const errors: Batch = async (client, site, before, limit) => {
  const { rows } = await run<DeletedError>(client, DELETE_ERRORS, [site, before, limit]);
  const groups = errorGroupDeltas(rows);
  if (groups.length) {
    const keys = [groups.map((group) => group.fingerprint), groups.map((group) => group.day)];
    await client.query(TAKE_ERRORS, [site, ...keys, groups.map((group) => group.reports), groups.map((group) => group.count)]);
    await client.query(DROP_ERRORS, [site, ...keys]);
    await client.query(FIRST_SEEN, [site, ...keys]);
    for (const text of ISSUE_DAYS) await client.query(text, [site, ...keys]);
  }
  return rows.length;
};

const csp: Batch = async (client, site, before, limit) => {
  const { rows } = await run<DeletedCsp>(client, DELETE_CSP, [site, before, limit]);
  const groups = cspGroupDeltas(rows);
  if (groups.length) {
    const keys = [
      groups.map((group) => group.directive),
      groups.map((group) => group.blocked_host),
      groups.map((group) => group.disposition),
      groups.map((group) => group.day),
    ];
    await client.query(TAKE_CSP, [site, ...keys, groups.map((group) => group.reports)]);
    await client.query(DROP_CSP, [site, ...keys]);
  }
  return rows.length;
};

// A release's maps go once its reports have (docs/source-maps.md, "Retention"), as in sqlite/retention.ts.
const DELETE_MAPS = `DELETE FROM source_maps WHERE (site_key, release, url) IN (
    SELECT m.site_key, m.release, m.url FROM source_maps AS m WHERE m.site_key = $1 AND m.uploaded_at < $2 AND NOT EXISTS (
      SELECT 1 FROM error_reports AS r WHERE r.site_key = $1 AND r.received_at >= $2 AND r.release = m.release
    ) LIMIT $3
  )`;
const maps: Batch = async (client, site, before, limit) => (await run(client, DELETE_MAPS, [site, before, limit])).rowCount ?? 0;

const sessions: Batch = async (client, site, before, limit) => (await run(client, DELETE_SESSIONS, [site, before, limit])).rowCount ?? 0;

/**
 * Retention in PostgreSQL: per site and table, one transaction deletes the oldest rows before the
 * cutoff and takes them out of the aggregates, as sqlite/retention.ts. Its own transactions, not
 * the ingest's group commits: those never wait for a deletion's batch. When several collectors run
 * retention on one database, one at a time does it (a transaction-level advisory lock; the others
 * find nothing to do this time).
 */
export const postgresRetention = (pool: Pool) => {
  /** One batch in one transaction; undefined when another collector holds the lock. */
  const batch = async (table: Batch, site: string, before: number, limit: number) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [RETENTION_LOCK]);
      const deleted = rows[0]!.locked ? await table(client, site, before, limit) : undefined;
      await client.query('COMMIT');
      return deleted;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      client.release(broken);
    }
  };
  return {
    async deleteBefore(before, { limit }) {
      let deleted = 0;
      const { rows } = await run<{ site_key: string }>(pool, 'SELECT site_key FROM sites ORDER BY site_key');
      for (const { site_key } of rows) {
        for (const table of [errors, csp, sessions, maps]) {
          if (deleted >= limit) return deleted;
          const count = await batch(table, site_key, before, limit - deleted);
          if (count === undefined) return deleted;
          deleted += count;
        }
      }
      return deleted;
    },
  } satisfies RetentionStore;
};
