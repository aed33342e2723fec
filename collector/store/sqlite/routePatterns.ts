import type { Database } from 'better-sqlite3';
import type { RoutePatternStore } from '../contract/routePatterns';
import type { Write } from './groupCommit';
import { siteCheck } from './siteCheck';

/**
 * A site's route patterns in SQLite (store/contract/routePatterns.ts): rows of `route_patterns` in
 * the order of their `position`, written through the group commit with the site checked in the
 * same transaction (siteCheck.ts); `site rotate-key` moves them with every row under the key.
 */
export const sqliteRoutePatterns = (db: Database, write: Write): RoutePatternStore => {
  const requireSite = siteCheck(db);
  const select = db.prepare<[string], string>('SELECT pattern FROM route_patterns WHERE site_key = ? ORDER BY position').pluck();
  const count = db.prepare<[string], number>('SELECT COUNT(*) FROM route_patterns WHERE site_key = ?').pluck();
  const insert = db.prepare<[string, string, string]>(
    `INSERT INTO route_patterns (site_key, pattern, position)
     SELECT ?, ?, coalesce(MAX(position), 0) + 1 FROM route_patterns WHERE site_key = ?
     ON CONFLICT (site_key, pattern) DO NOTHING`,
  );
  const remove = db.prepare<[string, string]>('DELETE FROM route_patterns WHERE site_key = ? AND pattern = ?');
  return {
    list: async (siteKey) => select.all(siteKey),
    add: (siteKey, pattern, max) =>
      write(() => {
        requireSite(siteKey);
        if (select.all(siteKey).includes(pattern)) return 'exists';
        if (count.get(siteKey)! >= max) return 'full';
        insert.run(siteKey, pattern, siteKey);
        return 'added';
      }),
    remove: (siteKey, pattern) => write(() => remove.run(siteKey, pattern).changes > 0),
  };
};
