import type { Database } from 'better-sqlite3';
import type { User } from '../../core/records';
import type { SessionStore, UserStore } from '../contract/users';
import { toRecord, type Row } from './rows';

/** Dashboard users and their sessions in SQLite. Rare writes: each commits on its own, at once. */
export const sqliteUsers = (db: Database) => {
  const insertUser = db.prepare('INSERT INTO users (email, password_hash, site_keys, created_at) VALUES (@email, @password_hash, @site_keys, @created_at)');
  const upsertUser = db.prepare(
    `INSERT INTO users (email, password_hash, site_keys, created_at) VALUES (@email, @password_hash, @site_keys, @created_at)
     ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash, site_keys = excluded.site_keys`,
  );
  const selectByEmail = db.prepare<[string], Row>('SELECT * FROM users WHERE email = ?');
  const byEmail = (email: string) => {
    const found = selectByEmail.get(email);
    return found && toRecord<User>(found);
  };
  // Only for a user who still exists (and, given a hash, still has it): see SessionStore.create.
  const insertSession = db.prepare<[string, number, number, number, string | null, string | null]>(
    `INSERT INTO user_sessions (token_hash, user_id, created_at, expires_at)
     SELECT ?, id, ?, ? FROM users WHERE id = ? AND (? IS NULL OR password_hash = ?)`,
  );
  const selectSessionUser = db.prepare<[string, number], Row>(
    'SELECT users.* FROM user_sessions JOIN users ON users.id = user_sessions.user_id WHERE token_hash = ? AND expires_at > ?',
  );
  const deleteSession = db.prepare<[string]>('DELETE FROM user_sessions WHERE token_hash = ?');
  const deleteExpired = db.prepare<[number]>('DELETE FROM user_sessions WHERE expires_at <= ?');
  const deleteUserSessions = db.prepare<[number], { expires_at: number }>('DELETE FROM user_sessions WHERE user_id = ? RETURNING expires_at');
  const deleteUser = db.prepare<[number]>('DELETE FROM users WHERE id = ?');
  const updatePasswordHash = db.prepare<[string, number]>('UPDATE users SET password_hash = ? WHERE id = ?');
  const endSessions = (userId: number) => deleteUserSessions.all(userId).filter((row) => row.expires_at > Date.now()).length;
  // The user's row and their sessions change in one transaction, IMMEDIATE since it reads before it
  // writes: no process sees one change without the other.
  const remove = db.transaction((email: string) => {
    const user = byEmail(email);
    if (!user) return false;
    endSessions(user.id);
    deleteUser.run(user.id);
    return true;
  });
  const setPasswordHash = db.transaction((email: string, passwordHash: string) => {
    const user = byEmail(email);
    if (!user) return undefined;
    updatePasswordHash.run(passwordHash, user.id);
    endSessions(user.id);
    return byEmail(email);
  });

  const row = (user: Pick<User, 'email' | 'password_hash' | 'site_keys'>) => ({
    email: user.email,
    password_hash: user.password_hash,
    site_keys: user.site_keys ? JSON.stringify(user.site_keys) : null,
    created_at: Date.now(),
  });

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
      async remove(email) {
        return remove.immediate(email);
      },
      async setPasswordHash(email, passwordHash) {
        return setPasswordHash.immediate(email, passwordHash);
      },
    } satisfies UserStore,
    sessions: {
      async create({ token_hash, user_id, expires_at, password_hash }) {
        // A sign-in also sweeps the sessions that have expired: the table holds live ones only.
        deleteExpired.run(Date.now());
        const hash = password_hash ?? null;
        return insertSession.run(token_hash, Date.now(), expires_at, user_id, hash, hash).changes == 1;
      },
      async findUser(tokenHash, now) {
        const found = selectSessionUser.get(tokenHash, now);
        return found && toRecord<User>(found);
      },
      async delete(tokenHash) {
        deleteSession.run(tokenHash);
      },
      async deleteForUser(userId) {
        return endSessions(userId);
      },
    } satisfies SessionStore,
  };
};
