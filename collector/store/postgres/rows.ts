import type { ListOptions, Page } from '../contract/queryOptions';
import { decodeCursor, encodeCursor } from '../../core/cursor';
import { storedJson, storedText } from '../storedText';
import type { QueryResultRow } from 'pg';
import type { Client, Pool } from './pool';
import { AWAITING_COLUMN } from '../awaitingCopy';

export type Row = Record<string, unknown>;

/** Columns holding milliseconds (int8) in the database and ISO strings in records, as in SQLite. */
const TIME_COLUMNS = new Set([
  'received_at', 'updated_at', 'created_at', 'completed_at', 'registered_at', 'last_check_in_at', 'last_heartbeat_at',
]);
/** Columns holding JSON text (`metrics` is jsonb: pg parses it). */
const JSON_COLUMNS = new Set(['extra', 'body', 'payload', 'result', 'allowed_origins', 'sources', 'site_keys', 'causes']);
/** `status` is a JSON report in these tables, a plain word in site_actions. */
export const WITH_JSON_STATUS = new Set([...JSON_COLUMNS, 'status']);

/** A row as the API shows it: times as ISO strings, JSON columns parsed, SQL NULLs and the store's own lookup column (AWAITING_COLUMN) dropped (as sqlite/rows.ts). */
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

/** One value as a parameter: absent as NULL, objects as JSON, text as storedText() keeps it. */
export const param = (value: unknown) =>
  value === undefined || value === null
    ? null
    : typeof value == 'string'
      ? storedText(value)
      : typeof value == 'object'
        ? storedJson(value)
        : value;

/** Rows as one array per column: what `unnest($1::type[], ...)` takes. */
export const columns = (rows: unknown[][], width: number) => Array.from({ length: width }, (_, column) => rows.map((row) => row[column]));

/**
 * A query with every value as param() makes it: a key or URL from a request with a NUL in it finds
 * nothing instead of failing. `name` makes it a prepared statement (once per connection).
 */
export const run = <R extends QueryResultRow = Row>(db: Pool | Client, text: string, values: unknown[] = [], name?: string) =>
  db.query<R>({ text, values: values.map(param), ...(name ? { name } : {}) });

/**
 * A report's or session's client as parsed at ingest (browser, OS, device, bot: docs/issues.md) is
 * the store's index for the issues' filters, not part of the record lists and exports show: those
 * keep the user agent it was parsed from.
 */
const withoutParsedClient = ({ browser: _browser, os: _os, device: _device, bot: _bot, ...row }: Row): Row => row;

/** The default and largest page of a list. */
const DEFAULT_LIMIT = 100;

/** A paged list of a site's rows by id, `since` on `timeColumn` (as sqlite/rows.ts pagedList). */
export const pagedList = <T>(pool: Pool, table: string, timeColumn: string) => {
  const text = `SELECT * FROM ${table} WHERE site_key = $1 AND ${timeColumn} >= $2 AND id > $3 ORDER BY id LIMIT $4`;
  return async (siteKey: string, { since = 0, cursor, limit = DEFAULT_LIMIT }: ListOptions = {}): Promise<Page<T>> => {
    const after = cursor === undefined ? 0 : (decodeCursor(cursor) ?? 0);
    // Not a named (prepared) statement: `SELECT *` of a prepared statement fails ("cached plan must
    // not change result type") once a newer collector adds a column, during a rolling upgrade.
    const { rows } = await run(pool, text, [siteKey, since, after, limit]);
    const last = rows[rows.length - 1];
    return {
      data: rows.map((row) => toRecord<T>(withoutParsedClient(row))),
      next_cursor: rows.length == limit && last ? encodeCursor(last.id as number) : null,
    };
  };
};
