import { hashApiKey, newApiKey } from '../core/keys';
import { databaseLocation, parseOptions, withStore, type CliIO } from './args';

/** `sitebeacon key create [--site SITE_KEY] [--name NAME]`: prints a new API key once; only its hash is kept. */
export const keyCreate = async (args: string[], io: CliIO) => {
  const values = parseOptions(args, { site: { type: 'string' }, name: { type: 'string' } });
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
    io.out(`Created API key "${created.name}" for ${scope}:\n\n  ${apiKey}\n\nIt is shown only this once; the collector keeps only its hash.`);
  }
};
