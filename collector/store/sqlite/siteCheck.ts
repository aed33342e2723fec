import type { Database } from 'better-sqlite3';
import { UnknownSiteError } from '../unknownSiteError';

/**
 * The site check of a management write (a WordPress install, an action, a CSP project, an agent, an
 * API key made for a site): called first in the write's own transaction, it throws UnknownSiteError
 * (contract.ts) when no site has `siteKey` (any longer: another process, such as the CLI's `site
 * rotate-key`, rotated it after the caller looked the site up), so nothing of the write is stored.
 * No key (an installation-wide API key, an agent of no site) passes.
 *
 * Looked up rather than read off a failed INSERT as report writes do (underSite.ts): a rotated
 * WordPress install fails its `site_url` UNIQUE before the foreign key, and these writes are rare,
 * so one lookup by primary key each costs nothing that matters. The transaction is the group
 * commit's BEGIN IMMEDIATE (or one of its own, `.immediate()`): it holds SQLite's write lock, so no
 * rotation can commit between the lookup and the INSERT.
 *
 * @example
 * const requireSite = siteCheck(db);
 * await write(() => { requireSite(siteKey); return insertAction.run(row); });
 */
export const siteCheck = (db: Database) => {
  const selectSite = db.prepare<[string], number>('SELECT 1 FROM sites WHERE site_key = ?').pluck();
  return (siteKey: string | undefined) => {
    if (siteKey !== undefined && selectSite.get(siteKey) === undefined) throw new UnknownSiteError(siteKey);
  };
};
