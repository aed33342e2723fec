import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import {
  DEFAULT_SITE_KEY,
  type ListOptions,
  type NewErrorReport,
  type ReceiveContext,
  type Site,
  type Store,
  type StoredErrorReport,
} from './store';
import { migrate } from './migrations';

interface SiteRow {
  site_key: string;
  name: string;
  allowed_origins: string;
  created_at: number;
}

interface ErrorRow extends Omit<StoredErrorReport, 'received_at' | 'extra'> {
  received_at: number;
  extra: string | null;
}

const toSite = (row: SiteRow): Site => ({
  siteKey: row.site_key,
  name: row.name,
  allowedOrigins: JSON.parse(row.allowed_origins) as string[],
  createdAt: new Date(row.created_at).toISOString(),
});

/** Drops SQL NULLs so a record reads like what was sent. */
const withoutNulls = <T extends object>(row: T): T =>
  Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as T;

const toStoredError = ({ received_at, extra, ...rest }: ErrorRow): StoredErrorReport =>
  withoutNulls({
    ...rest,
    received_at: new Date(received_at).toISOString(),
    ...(extra ? { extra: JSON.parse(extra) as Record<string, unknown> } : {}),
  });

/** Public site keys: 16 URL-safe characters, unguessable so one site cannot write into another. */
export const newSiteKey = () => randomBytes(12).toString('base64url');

/**
 * The embedded store: one SQLite file in WAL mode (better-sqlite3). Writes are synchronous
 * transactions, so a promise resolves only after the commit.
 *
 * @example
 * const store = createSqliteStore({ file: './data/sitebeacon.db' });
 */
export const createSqliteStore = ({ file }: { file: string }): Store => {
  if (file != ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // With WAL, NORMAL loses no committed transaction on a process crash; FULL also covers power loss.
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  migrate(db);

  const selectSite = db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE site_key = ?');
  const upsertSite = db.prepare(
    `INSERT INTO sites (site_key, name, allowed_origins, created_at) VALUES (@site_key, @name, @allowed_origins, @created_at)
     ON CONFLICT (site_key) DO UPDATE SET name = excluded.name, allowed_origins = excluded.allowed_origins`,
  );
  const insertSite = db.prepare(
    'INSERT INTO sites (site_key, name, allowed_origins, created_at) VALUES (@site_key, @name, @allowed_origins, @created_at)',
  );
  const insertError = db.prepare(
    `INSERT INTO error_reports (site_key, received_at, error_type, error_message, error_name, stack, source_url,
       line, "column", page_url, timestamp, session_id, count, user_agent, extra)
     VALUES (@site_key, @received_at, @error_type, @error_message, @error_name, @stack, @source_url,
       @line, @column, @page_url, @timestamp, @session_id, @count, @user_agent, @extra)`,
  );
  const selectErrors = db.prepare<[string, number, number, number], ErrorRow>(
    `SELECT * FROM error_reports WHERE site_key = ? AND received_at >= ? AND id > ? ORDER BY id LIMIT ?`,
  );

  const insertErrors = db.transaction((siteKey: string, reports: NewErrorReport[], context: ReceiveContext) => {
    for (const report of reports) {
      insertError.run({
        error_name: null,
        stack: null,
        source_url: null,
        line: null,
        column: null,
        page_url: null,
        timestamp: null,
        session_id: null,
        count: null,
        ...report,
        extra: report.extra ? JSON.stringify(report.extra) : null,
        site_key: siteKey,
        received_at: context.receivedAt,
        user_agent: context.userAgent ?? null,
      });
    }
    return reports.length;
  });

  const siteRow = (siteKey: string, name: string, allowedOrigins: string[]) => ({
    site_key: siteKey,
    name,
    allowed_origins: JSON.stringify(allowedOrigins),
    created_at: Date.now(),
  });

  return {
    async getSite(siteKey) {
      const row = selectSite.get(siteKey);
      return row && toSite(row);
    },
    async getDefaultSite() {
      return toSite(selectSite.get(DEFAULT_SITE_KEY)!);
    },
    async addSite({ name, allowedOrigins, siteKey = newSiteKey() }) {
      insertSite.run(siteRow(siteKey, name || siteKey, allowedOrigins));
      return toSite(selectSite.get(siteKey)!);
    },
    async putSite({ siteKey, name, allowedOrigins }) {
      upsertSite.run(siteRow(siteKey, name, allowedOrigins));
      return toSite(selectSite.get(siteKey)!);
    },
    async insertErrorReports(siteKey, reports, context) {
      return insertErrors(siteKey, reports, context);
    },
    async listErrorReports(siteKey, { since, afterId = 0, limit = 1000 }: ListOptions = {}) {
      const sinceMs = since ? Date.parse(since) : 0;
      return selectErrors.all(siteKey, Number.isNaN(sinceMs) ? 0 : sinceMs, afterId, limit).map(toStoredError);
    },
    async close() {
      db.close();
    },
  };
};
