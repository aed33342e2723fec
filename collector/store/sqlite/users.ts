import type { Database } from 'better-sqlite3';
import type { User } from '../../core/records';
import type { SessionStore, UserStore } from '../contract';
import { toRecord, type Row } from './rows';

/** Dashboard users and their sessions in SQLite. Rare writes: each commits on its own, at once. */
export const sqliteUsers = (db: Database): { users: UserStore; sessions: SessionStore } => {
  const insertUser = db.prepare('INSERT INTO users (email, password_hash, site_keys, created_at) VALUES (@email, @password_hash, @site_keys, @created_at)');
  const upsertUser = db.prepare(
    `INSERT INTO users (email, password_hash, site_keys, created_at) VALUES (@email, @password_hash, @site_keys, @created_at)
     ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash, site_keys = excluded.site_keys`,
  );
  const selectByEmail = db.prepare<[string], Row>('SELECT * FROM users WHERE email = ?');
  const insertSession = db.prepare('INSERT INTO user_sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)');
  const selectSessionUser = db.prepare<[string, number], Row>(
    'SELECT users.* FROM user_sessions JOIN users ON users.id = user_sessions.user_id WHERE token_hash = ? AND expires_at > ?',
  );
  const deleteSession = db.prepare<[string]>('DELETE FROM user_sessions WHERE token_hash = ?');
  const deleteExpired = db.prepare<[number]>('DELETE FROM user_sessions WHERE expires_at <= ?');

  const row = (user: Pick<User, 'email' | 'password_hash' | 'site_keys'>) => ({
    email: user.email,
    password_hash: user.password_hash,
    site_keys: user.site_keys ? JSON.stringify(user.site_keys) : null,
    created_at: Date.now(),
  });
  const byEmail = (email: string) => {
    const found = selectByEmail.get(email);
    return found && toRecord<User>(found);
  };

  return {
    users: {
      async create(user) {
        insertUser.run(row(user));
        return byEmail(user.email)!;
      },
      async put(user) {
        upsertUser.run(row(user));
        return byEmail(user.email)!;
      },
      async findByEmail(email) {
        return byEmail(email);
      },
    },
    sessions: {
      async create({ token_hash, user_id, expires_at }) {
        // A sign-in also sweeps the sessions that have expired: the table holds live ones only.
        deleteExpired.run(Date.now());
        insertSession.run(token_hash, user_id, Date.now(), expires_at);
      },
      async findUser(tokenHash, now) {
        const found = selectSessionUser.get(tokenHash, now);
        return found && toRecord<User>(found);
      },
      async delete(tokenHash) {
        deleteSession.run(tokenHash);
      },
    },
  };
};
