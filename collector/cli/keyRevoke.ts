import { hashApiKey } from '../core/keys';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { revokeAndConfirm } from './revokeAndConfirm';

/**
 * `sitebeacon key revoke KEY`: the API key is refused (401) from the next request on, by every
 * collector sharing the database: keys are looked up on each request, never cached.
 */
export const keyRevoke = defineCommand({
  name: ['key', 'revoke'],
  summary: 'the API key is refused from the next request on',
  help: 'the API key is refused (401) from the next request on, by every collector on the database',
  args: [{ name: 'KEY', help: 'the API key to revoke' }],
  flags: { ...DATABASE_FLAGS },
  run: ({ values, args: [key] }, io) => {
    const keyHash = hashApiKey(key!);
    return revokeAndConfirm(values, io, {
      revoke: async (store) => {
        const found = await store.apiKeys.findByHash(keyHash);
        return found && (await store.apiKeys.revoke(keyHash)) ? found : undefined;
      },
      notFound: 'no API key matches: it was never created here, or is already revoked',
      json: (revoked) => ({ revoked: true, name: revoked.name, ...(revoked.site_key ? { site_key: revoked.site_key } : {}) }),
      text: (revoked) => `Revoked API key "${revoked.name}" (${revoked.site_key ? `site ${revoked.site_key}` : 'the whole installation'}): it is refused from the next request on.`,
    });
  },
});
