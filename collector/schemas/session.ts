import * as v from 'valibot';

/** `POST /api/v1/session`: an email and a password, bounded (scrypt reads the whole password). */
export const SignInSchema = v.object({
  email: v.pipe(v.string(), v.maxLength(254)),
  password: v.pipe(v.string(), v.maxLength(1024)),
});
