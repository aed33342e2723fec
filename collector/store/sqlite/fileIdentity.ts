import { statSync } from 'node:fs';
import { UnhealthyStoreError } from '../unhealthyStoreError';

/**
 * Watches that the path of an open SQLite file still names the file the collector opened (its
 * device and inode, recorded at open). Deleted or replaced (`rm`, a backup copied or renamed over
 * it), the collector's connections still write to the old inode, which nothing will ever open
 * again: every report acknowledged from then on would be lost at the next restart. `check()`
 * throws UnhealthyStoreError from then on (once seen, for good: only a restart opens the new file).
 * It is called before a write is queued and again once it has committed, before it is
 * acknowledged, and by the health probe; one stat per turn of the event loop at most (a group
 * commit's writes are all acknowledged in one turn), so the cost is per group, not per report.
 *
 * @example
 * const identity = watchFileIdentity('./data/sitebeacon.db');
 * identity.check(); // throws once the file has been deleted or replaced
 */
export const watchFileIdentity = (file: string) => {
  const opened = statSync(file);
  let lost: UnhealthyStoreError | undefined;
  let checkedThisTurn = false;
  return {
    check() {
      if (lost) throw lost;
      if (checkedThisTurn) return;
      checkedThisTurn = true;
      setImmediate(() => (checkedThisTurn = false)).unref();
      const now = statSync(file, { throwIfNoEntry: false });
      if (now && now.dev == opened.dev && now.ino == opened.ino) return;
      const what = now ? 'replaced by another file' : 'deleted';
      lost = new UnhealthyStoreError(
        `the database file was ${now ? 'replaced' : 'deleted'}`,
        `the database file ${file} was ${what} while the collector had it open: writes are refused (503) until the collector restarts and opens what is there now (README, "Backups and upgrades")`,
      );
      throw lost;
    },
  };
};
