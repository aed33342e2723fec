import type { User } from '../../core/records';
import type { SessionStore, UserStore } from '../contract/users';
import type { Client, Pool } from './pool';
import { run, toRecord } from './rows';

const INSERT_USER = 'INSERT INTO users (email, password_hash, site_keys, created_at) VALUES ($1, $2, $3, $4)';
const SESSION_USER = `SELECT users.* FROM user_sessions JOIN users ON users.id = user_sessions.user_id
  WHERE token_hash = $1 AND expires_at > $2`;
// Only for a user who still exists (and, given a hash, still has it): see SessionStore.create.
// FOR SHARE waits for a password reset under way (setPasswordHash's UPDATE) and then checks the new
// hash; a reset that comes second waits for this insert and its DELETE then sees the session. A
// removal cannot miss it either: the foreign key's ON DELETE CASCADE (schema.ts, version 3).
const INSERT_SESSION = `INSERT INTO user_sessions (token_hash, user_id, created_at, expires_at)
  SELECT $1, id, $3, $4 FROM users WHERE id = $2 AND ($5::text IS NULL OR password_hash = $5) FOR SHARE`;
const END_SESSIONS = `WITH ended AS (DELETE FROM user_sessions WHERE user_id = $1 RETURNING expires_at)
  SELECT count(*) FILTER (WHERE expires_at > $2)::int AS live FROM ended`;

/** Runs `work` in a transaction of its own connection: committed when it resolves, rolled back when it throws. */
const inTransaction = async <T>(pool: Pool, work: (client: Client) => Promise<T>): Promise<T> => {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
};

/**
 * Dashboard users and their sessions in PostgreSQL, as sqlite/users.ts. Rare writes: each commits
 * on its own, at once, so a sign-in at one collector is seen by the next request at any other.
 */
export const postgresUsers = (pool: Pool) => {
  const values = (user: Pick<User, 'email' | 'password_hash' | 'site_keys'>) => [user.email, user.password_hash, user.site_keys, Date.now()];
  const one = async (text: string, params: unknown[]) => {
    const { rows } = await run(pool, text, params);
    return rows[0] && toRecord<User>(rows[0]);
  };
  return {
    users: {
      async create(user) {
        return (await one(`${INSERT_USER} RETURNING *`, values(user)))!;
      },
      async put(user) {
        return (await one(
          `${INSERT_USER} ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash, site_keys = excluded.site_keys RETURNING *`,
          values(user),
        ))!;
      },
      findByEmail: (email) => one('SELECT * FROM users WHERE email = $1', [email]),
      async remove(email) {
        const { rowCount } = await run(pool, 'DELETE FROM users WHERE email = $1', [email]);
        return rowCount == 1;
      },
      async setPasswordHash(email, passwordHash) {
        // Two statements in one transaction: the DELETE's snapshot is taken after the UPDATE has its
        // row lock, so it sees any session a sign-in inserted before (INSERT_SESSION).
        return inTransaction(pool, async (client) => {
          const { rows } = await run(client, 'UPDATE users SET password_hash = $2 WHERE email = $1 RETURNING *', [email, passwordHash]);
          if (!rows[0]) return undefined;
          await run(client, 'DELETE FROM user_sessions WHERE user_id = $1', [rows[0].id]);
          return toRecord<User>(rows[0]);
        });
      },
    } satisfies UserStore,
    sessions: {
      async create({ token_hash, user_id, expires_at, password_hash }) {
        // A sign-in also sweeps the sessions that have expired: the table holds live ones only.
        await run(pool, 'DELETE FROM user_sessions WHERE expires_at <= $1', [Date.now()]);
        const { rowCount } = await run(pool, INSERT_SESSION, [token_hash, user_id, Date.now(), expires_at, password_hash]);
        return rowCount == 1;
      },
      findUser: (tokenHash, now) => one(SESSION_USER, [tokenHash, now]),
      async delete(tokenHash) {
        await run(pool, 'DELETE FROM user_sessions WHERE token_hash = $1', [tokenHash]);
      },
      async deleteForUser(userId) {
        const { rows } = await run<{ live: number }>(pool, END_SESSIONS, [userId, Date.now()]);
        return rows[0]!.live;
      },
    } satisfies SessionStore,
  };
};
