import type { User } from '../../core/records';

/**
 * Dashboard users (docs/access.md, "Dashboard sessions"). Emails arrive normalised
 * (core/users.ts) and are unique; `password_hash` is core/passwords.ts's; no `site_keys` (or
 * undefined) means every site, an array names the only sites the user may see.
 */
export interface UserStore {
  /** Creates a user; fails if the email exists. */
  create(user: Pick<User, 'email' | 'password_hash' | 'site_keys'>): Promise<User>;
  /** Creates the user, or replaces the password hash and sites of the one with this email. */
  put(user: Pick<User, 'email' | 'password_hash' | 'site_keys'>): Promise<User>;
  findByEmail(email: string): Promise<User | undefined>;
  /**
   * Removes the user with this email and ends every session of theirs (`user remove`): their
   * cookie is refused from the next request on. False when no user has the email.
   */
  remove(email: string): Promise<boolean>;
  /**
   * Replaces the password hash of the user with this email, keeping their sites, and ends every
   * session of theirs in the same write (`user reset-password`: a reset after a leak leaves no one
   * signed in with the old password). Undefined when no user has the email.
   */
  setPasswordHash(email: string, passwordHash: string): Promise<User | undefined>;
}

/**
 * Signed-in sessions: stored by the SHA-256 of their token (core/sessions.ts), never the token.
 * Written at once (not group-committed with reports): a sign-in is rare.
 */
export interface SessionStore {
  /**
   * Creates the session, if its user still exists and, when `password_hash` is given, still has
   * that hash: a sign-in checked against a password that was reset (or a user removed) while it
   * was hashed creates nothing. Resolves to whether it was created.
   */
  create(session: { token_hash: string; user_id: number; expires_at: number; password_hash?: string }): Promise<boolean>;
  /** The user of the session with this token hash, if it has not expired at `now` (ms); the user as `users` returns it. */
  findUser(tokenHash: string, now: number): Promise<User | undefined>;
  /** Ends the session (sign-out); nothing happens for an unknown hash. Expired sessions may be removed too. */
  delete(tokenHash: string): Promise<void>;
  /** Ends every session of the user (`user sign-out`); resolves to how many had not expired. */
  deleteForUser(userId: number): Promise<number>;
}
