import { hashPassword } from '../core/passwords';
import { EMAIL, normalizeEmail } from '../core/users';
import { databaseLocation, UsageError, withStore } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { PASSWORD_STDIN_FLAG, passwordInput } from './passwordInput';
import { shownOnce } from './shownOnce';

/**
 * `sitebeacon user add --email EMAIL [--site SITE_KEY...] [--password-stdin]`: a dashboard user who
 * sees every site, or only the sites named (README, "The dashboard"). Without `--password-stdin`
 * a password is generated and printed once; only its scrypt hash is kept.
 */
export const userAdd = defineCommand({
  name: ['user', 'add'],
  summary: 'create a dashboard user who sees every site, or only those named',
  help:
    'creates a dashboard user who sees every site, or only the sites named; without `--password-stdin` a password is generated and printed once ' +
    '(`--json`: `{"email", "password", "site_keys"}`); stored as a scrypt hash',
  flags: {
    email: { type: 'string', value: 'EMAIL', required: true, help: "the user's email address, with which they sign in" },
    site: { type: 'string', multiple: true, value: 'SITE_KEY', help: 'a site the user sees (repeat it for each); without it, every site' },
    'password-stdin': PASSWORD_STDIN_FLAG,
    ...DATABASE_FLAGS,
  },
  run: async ({ values }, io) => {
    const email = normalizeEmail(values.email!);
    if (!EMAIL.test(email)) throw new UsageError('user add needs --email EMAIL (an email address)');
    const { password } = await passwordInput(values['password-stdin'], io);
    const siteKeys = values.site?.length ? [...new Set(values.site)] : undefined;
    const user = await withStore(databaseLocation(values, io), async (store) => {
      for (const siteKey of siteKeys ?? []) if (!(await store.sites.get(siteKey))) throw new Error(`no site has the key "${siteKey}"`);
      if (await store.users.findByEmail(email)) throw new Error(`a user with the email ${email} exists`);
      return store.users.create({ email, password_hash: await hashPassword(password), site_keys: siteKeys });
    });
    const shown = values['password-stdin'] ? {} : { password };
    if (values.json) {
      io.out(JSON.stringify({ email: user.email, ...shown, site_keys: user.site_keys ?? null }));
    } else {
      const scope = user.site_keys ? `the sites ${user.site_keys.join(', ')}` : 'every site';
      io.out(`Created user ${user.email}, who sees ${scope}.` + (values['password-stdin'] ? '' : shownOnce(`password: ${password}`, 'scrypt hash')));
    }
  },
});
