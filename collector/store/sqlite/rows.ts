import type { Database } from 'better-sqlite3';
import type { ListOptions, Page } from '../contract/queryOptions';
import { decodeCursor, encodeCursor } from '../../core/cursor';
import { storedJson, storedText } from '../storedText';
import { AWAITING_COLUMN } from '../awaitingCopy';

export type Row = Record<string, unknown>;

/** Columns holding milliseconds in SQLite and ISO strings in records. */
const TIME_COLUMNS = new Set([
  'received_at', 'updated_at', 'created_at', 'completed_at', 'registered_at', 'last_check_in_at', 'last_heartbeat_at',
]);
/** Columns holding JSON text. */
export const JSON_COLUMNS = new Set(['extra', 'body', 'metrics', 'payload', 'result', 'allowed_origins', 'sources', 'site_keys', 'causes']);
/** `status` is a JSON report in these tables, a plain word in site_actions. */
export const WITH_JSON_STATUS = new Set([...JSON_COLUMNS, 'status']);

/** A row as the API shows it: times as ISO strings, JSON columns parsed, SQL NULLs and the store's own lookup column (AWAITING_COLUMN) dropped. */
export const toRecord = <T>(row: Row, jsonColumns = JSON_COLUMNS): T => {
  const record: Row = {};
  for (const [column, value] of Object.entries(row)) {
    if (value === null || column == AWAITING_COLUMN) continue;
    record[column] = TIME_COLUMNS.has(column)
      ? new Date(value as number).toISOString()
      : jsonColumns.has(column)
        ? JSON.parse(value as string)
        : value;
  }
  return record as T;
};

/** One value as SQLite takes it: absent as NULL, objects as JSON, text as every store keeps it (../storedText.ts). */
export const toColumnValue = (value: unknown) =>
  value === undefined
    ? null
    : typeof value == 'string'
      ? storedText(value)
      : typeof value == 'object' && value !== null
        ? storedJson(value)
        : value;

/** A record as named parameters of one insert: every column bound. */
export const toRow = (columns: readonly string[], record: Row): Row =>
  Object.fromEntries(columns.map((column) => [column, toColumnValue(record[column])]));

/** A record as positional parameters, in column order: binding an array is cheaper than names (hot path). */
export const toValues = (columns: readonly string[], record: Row): unknown[] =>
  columns.map((column) => toColumnValue(record[column]));

const quoted = (columns: readonly string[]) => columns.map((column) => `"${column}"`).join(', ');

export const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${quoted(columns)}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`;

export const positionalInsertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${quoted(columns)}) VALUES (${columns.map(() => '?').join(', ')})`;

/**
 * A report's or session's client as parsed at ingest (browser, OS, device, bot: docs/issues.md) is
 * the store's index for the issues' filters, not part of the record lists and exports show: those
 * keep the user agent it was parsed from.
 */
const withoutParsedClient = ({ browser: _browser, os: _os, device: _device, bot: _bot, ...row }: Row): Row => row;

/** The default and largest page of a list. */
const DEFAULT_LIMIT = 100;

/** A paged list of a site's rows by id, `since` on `timeColumn`. */
export const pagedList = <T>(db: Database, table: string, timeColumn: string) => {
  const statement = db.prepare<[string, number, number, number], Row>(
    `SELECT * FROM ${table} WHERE site_key = ? AND ${timeColumn} >= ? AND id > ? ORDER BY id LIMIT ?`,
  );
  return (siteKey: string, { since = 0, cursor, limit = DEFAULT_LIMIT }: ListOptions = {}): Page<T> => {
    const rows = statement.all(siteKey, since, cursor === undefined ? 0 : (decodeCursor(cursor) ?? 0), limit);
    const last = rows[rows.length - 1];
    return {
      data: rows.map((row) => toRecord<T>(withoutParsedClient(row))),
      next_cursor: rows.length == limit && last ? encodeCursor(last.id as number) : null,
    };
  };
};
