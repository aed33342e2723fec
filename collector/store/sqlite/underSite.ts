import type { Database } from 'better-sqlite3';
import { siteCheck } from './siteCheck';

/**
 * Wraps a report write of the writer's group commit (reportWrites.ts) that stores rows under `siteKey`: when its INSERT fails
 * the `sites` foreign key because no site has the key (any longer: another process, such as the
 * CLI's `site rotate-key`, rotated it between the caller's lookup and this write), it throws
 * UnknownSiteError instead (contract.ts; the lookup is siteCheck.ts's). The group commit rolls its transaction back, so nothing
 * of the write is stored, and commits the group's other writes without it. Costs nothing until an
 * INSERT fails. Relies on foreign keys being enforced, which better-sqlite3 builds in
 * (SQLITE_DEFAULT_FOREIGN_KEYS=1; the contract suite would fail without).
 *
 * @example
 * const siteWrite = underSite(db);
 * const stored = siteWrite(siteKey, () => storeErrors(siteKey, rows, context, aggregates))();
 */
export const underSite = (db: Database) => {
  const requireSite = siteCheck(db);
  return <T>(siteKey: string, run: () => T) =>
    (): T => {
      try {
        return run();
      } catch (error) {
        // A failed statement ends only itself in SQLite: the transaction can still read. The
        // lookup throws UnknownSiteError when the key is gone; any other failure is rethrown.
        if ((error as { code?: unknown }).code == 'SQLITE_CONSTRAINT_FOREIGNKEY') requireSite(siteKey);
        throw error;
      }
    };
};
