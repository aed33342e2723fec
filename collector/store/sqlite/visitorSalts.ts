import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { VisitorSaltStore } from '../contract/visitorSalts';
import type { Write } from './groupCommit';

/**
 * The daily visitor salts in SQLite (docs/visitors.md): created, pruned and read in one write of
 * the group commit (groupCommit.ts), once per day and process: the collector keeps the day's
 * salt in memory.
 *
 * @example
 * const salt = await sqliteVisitorSalts(db, write).salt(visitorDay(Date.now()));
 * await sqliteVisitorSalts(db, write).prune(visitorDay(Date.now())); // 1: the salt of three days ago
 */
export const sqliteVisitorSalts = (db: Database, write: Write): VisitorSaltStore => {
  const insert = db.prepare<[number, Buffer]>('INSERT INTO visitor_salts (day, salt) VALUES (?, ?) ON CONFLICT (day) DO NOTHING');
  const prune = db.prepare<[number]>('DELETE FROM visitor_salts WHERE day < ?');
  const select = db.prepare<[number], { salt: Buffer }>('SELECT salt FROM visitor_salts WHERE day = ?');
  return {
    salt: (day) =>
      write(() => {
        insert.run(day, randomBytes(32));
        prune.run(day - 1);
        return new Uint8Array(select.get(day)!.salt);
      }),
    prune: (today) => write(() => prune.run(today - 1).changes),
  };
};
