import { hashApiKey, newApiKey } from '../core/keys';
import { databaseLocation, withStore } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { shownOnce } from './shownOnce';

/** `sitebeacon key create [--site SITE_KEY] [--name NAME]`: prints a new API key once; only its hash is kept. */
export const keyCreate = defineCommand({
  name: ['key', 'create'],
  summary: 'create an API key, for one site or the whole installation; printed once',
  help:
    'creates an API key for one site or the whole installation (only an installation key reads [`GET /metrics`](#metrics)); ' +
    'printed once, stored as a SHA-256 hash (`--json`: `{"api_key", "name", "site_key"}`)',
  flags: {
    site: { type: 'string', value: 'SITE_KEY', help: 'the one site the key reads; without it, the whole installation' },
    name: { type: 'string', value: 'NAME', help: 'what the key is for (default: `site SITE_KEY`, or `installation`)' },
    ...DATABASE_FLAGS,
  },
  run: async ({ values }, io) => {
    const apiKey = newApiKey();
    const created = await withStore(databaseLocation(values, io), async (store) => {
      if (values.site && !(await store.sites.get(values.site))) throw new Error(`no site has the key "${values.site}"`);
      return store.apiKeys.create({
        key_hash: hashApiKey(apiKey),
        name: values.name || (values.site ? `site ${values.site}` : 'installation'),
        site_key: values.site,
      });
    });
    if (values.json) {
      io.out(JSON.stringify({ api_key: apiKey, name: created.name, ...(created.site_key ? { site_key: created.site_key } : {}) }));
    } else {
      const scope = created.site_key ? `site ${created.site_key}` : 'the whole installation';
      io.out(`Created API key "${created.name}" for ${scope}:` + shownOnce(apiKey, 'hash'));
    }
  },
});
