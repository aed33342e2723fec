import { resolve } from 'node:path';
import type { Links } from '../core/setupUrls';
import { isPostgresUrl, openStore } from '../store/openStore';
import type { Store } from '../store/contract';

/** Where the CLI writes, and its environment; tests pass their own. */
export interface CliIO {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Record<string, string | undefined>;
  /** Everything on standard input (`user add --password-stdin`); process.stdin when not given. */
  stdin?: () => Promise<string>;
  /** How `serve` learns it is to stop gracefully; SIGINT and SIGTERM when not given. */
  onStop?: (stop: () => void) => void;
}

/** Reads standard input to its end. */
export const readStdin = async (io: CliIO) => {
  if (io.stdin) return io.stdin();
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text;
};

/** A mistake in the command line: main() prints it with the command's help and exits 2. */
export class UsageError extends Error {}

/**
 * Where a command's data is (README, "The collector" and "Several collectors on PostgreSQL"): `--database-url` (a
 * PostgreSQL URL) or `--db FILE` (SQLite), never both; else `SITEBEACON_DATABASE_URL`, else
 * `SITEBEACON_DB`, else ./data/sitebeacon.db. A flag wins over the environment.
 *
 * @example
 * databaseLocation({ 'database-url': 'postgres://db.internal/sitebeacon' }, io) // 'postgres://db.internal/sitebeacon'
 */
export const databaseLocation = (values: { db?: string | undefined; 'database-url'?: string | undefined }, io: CliIO) => {
  const url = values['database-url'];
  if (url !== undefined && values.db !== undefined) throw new UsageError('--db FILE and --database-url URL name two databases: give one');
  const chosen = url ?? (values.db === undefined ? io.env.SITEBEACON_DATABASE_URL || undefined : undefined);
  if (chosen !== undefined) {
    if (!isPostgresUrl(chosen)) {
      throw new UsageError(`${url !== undefined ? '--database-url' : 'SITEBEACON_DATABASE_URL'} must be a postgres:// or postgresql:// URL (an SQLite file is --db FILE)`);
    }
    return chosen;
  }
  return resolve(values.db || io.env.SITEBEACON_DB || './data/sitebeacon.db');
};

/**
 * A database location to print: a URL without its password (logs and `--json` output are read by
 * more people than the database's owner).
 *
 * @example
 * printableLocation('postgres://app:secret@db.internal/sitebeacon') // 'postgres://app:***@db.internal/sitebeacon'
 */
export const printableLocation = (location: string) => {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = '***';
    return url.href;
  } catch {
    return location.replace(/\/\/[^@/]*@/, '//***@');
  }
};

/**
 * Opens the store for one command's work and closes it after, whatever happens. A `readOnly`
 * command (`export`, `snippet`) never migrates: a database whose schema is older than this
 * sitebeacon's is refused with the `sitebeacon migrate` to run (store/schemaVersion.ts).
 *
 * @example
 * const site = await withStore(location, (store) => store.sites.get(siteKey), { readOnly: true });
 */
export const withStore = async <T>(location: string, work: (store: Store) => Promise<T>, { readOnly = false } = {}) => {
  const store = await openStore(location, { migrate: !readOnly });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
};

/** A URL option without its trailing slashes, or undefined when not given. */
export const baseUrl = (value: string | undefined) => value?.replace(/\/+$/, '') || undefined;

/**
 * Where the collector is reached, for the URLs a command prints: `--public-url` (default
 * http://127.0.0.1:8787) and `--ingest-url`, or their variables (commonFlags.ts LINK_FLAGS).
 */
export const linksFrom = (values: { 'public-url'?: string | undefined; 'ingest-url'?: string | undefined }): Links => {
  const appUrl = baseUrl(values['public-url']) || 'http://127.0.0.1:8787';
  const ingestUrl = baseUrl(values['ingest-url']);
  return { appUrl: () => appUrl, ingestUrl: () => ingestUrl };
};
