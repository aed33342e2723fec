import type { User } from '../../core/records';
import type { SessionStore, UserStore } from '../contract';
import type { Pool } from './pool';
import { run, toRecord } from './rows';

const INSERT_USER = 'INSERT INTO users (email, password_hash, site_keys, created_at) VALUES ($1, $2, $3, $4)';
const SESSION_USER = `SELECT users.* FROM user_sessions JOIN users ON users.id = user_sessions.user_id
  WHERE token_hash = $1 AND expires_at > $2`;

/**
 * Dashboard users and their sessions in PostgreSQL, as sqlite/users.ts. Rare writes: each commits
 * on its own, at once, so a sign-in at one collector is seen by the next request at any other.
 */
export const postgresUsers = (pool: Pool): { users: UserStore; sessions: SessionStore } => {
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
    },
    sessions: {
      async create({ token_hash, user_id, expires_at }) {
        // A sign-in also sweeps the sessions that have expired: the table holds live ones only.
        await run(pool, 'DELETE FROM user_sessions WHERE expires_at <= $1', [Date.now()]);
        await run(pool, 'INSERT INTO user_sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
          token_hash, user_id, Date.now(), expires_at,
        ]);
      },
      findUser: (tokenHash, now) => one(SESSION_USER, [tokenHash, now]),
      async delete(tokenHash) {
        await run(pool, 'DELETE FROM user_sessions WHERE token_hash = $1', [tokenHash]);
      },
    },
  };
};
