import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt's cost: N = 2^15, r = 8, p = 1 (OWASP's password storage cheat sheet minimum is
 * N = 2^17 with 128 MiB; 2^15 keeps a sign-in near 50 ms on this 2-core machine, and what an
 * attacker pays grows with N all the same). 32 MiB of memory per hash.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

const derive = (password: string, salt: Buffer, { N, r, p }: { N: number; r: number; p: number }) =>
  new Promise<Buffer>((resolve, reject) => {
    const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });

/**
 * What is stored of a password: `scrypt$N$r$p$SALT$HASH` (salt and hash base64url), never the password.
 * The parameters travel with the hash, so a later collector can raise them for new passwords and
 * still check old ones.
 *
 * @example
 * await hashPassword('correct horse') // 'scrypt$32768$8$1$…$…'
 */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
};

const STORED = /^scrypt\$(\d{1,7})\$(\d{1,2})\$(\d{1,2})\$([\w-]{16,64})\$([\w-]{43})$/;

/**
 * Whether `password` is the one `stored` was made from; the comparison is constant-time.
 * A malformed `stored` is never matched (and costs the same scrypt, so timing does not tell).
 *
 * @example
 * await verifyPassword('correct horse', await hashPassword('correct horse')) // true
 */
export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const match = STORED.exec(stored);
  const [N, r, p] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [COST.N, COST.r, COST.p];
  // Parameters a hash of ours never has (not a power of two, or far beyond ours) are refused, not run.
  const sane = match && N >= 2 && (N & (N - 1)) == 0 && N <= 2 ** 20 && r >= 1 && p >= 1 && p <= 4;
  const salt = sane ? Buffer.from(match[4]!, 'base64url') : randomBytes(16);
  const expected = sane ? Buffer.from(match[5]!, 'base64url') : randomBytes(KEY_BYTES);
  const key = await derive(password, salt, sane ? { N, r, p } : COST);
  return timingSafeEqual(key, expected) && !!sane;
};

let decoy: Promise<string> | undefined;

/**
 * A hash no password matches, made once: what a sign-in for an unknown email is checked against,
 * so that it takes the time a known one takes (docs/access.md, "Dashboard sessions": the same answer whether the email exists or not).
 *
 * @example
 * await verifyPassword(password, user?.password_hash ?? (await decoyPasswordHash())) // false without a user
 */
export const decoyPasswordHash = () => (decoy ??= hashPassword(randomBytes(32).toString('base64url')));

/**
 * A generated password (`user add` without `--password-stdin`, the demo user): 20 characters of
 * base64url, 120 random bits, printed once.
 *
 * @example
 * newPassword() // 'q3X0…'
 */
export const newPassword = () => randomBytes(15).toString('base64url');
