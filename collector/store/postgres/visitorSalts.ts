import { randomBytes } from 'node:crypto';
import type { VisitorSaltStore } from '../contract/visitorSalts';
import type { Pool } from './pool';

/**
 * The daily visitor salts in PostgreSQL (docs/visitors.md), shared by every collector process on
 * the database: each offers a salt for the day and keeps whichever was stored first (INSERT ... ON
 * CONFLICT DO NOTHING, then SELECT), so all hash one client alike. Once per day and process: the
 * collector keeps the day's salt in memory. The bytes go to `pg` as they are, not through
 * rows.ts's `param`, which would write a Buffer as JSON.
 *
 * @example
 * const salt = await postgresVisitorSalts(pool).salt(visitorDay(Date.now()));
 * await postgresVisitorSalts(pool).prune(visitorDay(Date.now())); // 1: the salt of three days ago
 */
export const postgresVisitorSalts = (pool: Pool): VisitorSaltStore => ({
  async salt(day) {
    await pool.query('INSERT INTO visitor_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING', [day, randomBytes(32)]);
    await pool.query('DELETE FROM visitor_salts WHERE day < $1', [day - 1]);
    const { rows } = await pool.query<{ salt: Buffer }>('SELECT salt FROM visitor_salts WHERE day = $1', [day]);
    return new Uint8Array(rows[0]!.salt);
  },
  // Idempotent: another process's prune of the same day deletes nothing more.
  async prune(today) {
    return (await pool.query('DELETE FROM visitor_salts WHERE day < $1', [today - 1])).rowCount ?? 0;
  },
});
