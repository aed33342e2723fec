import { databaseLocation, parseOptions, UsageError, withStore, type CliIO } from './args';

/**
 * `sitebeacon wordpress revoke --site SITE_KEY`: removes the site's WordPress installation and its
 * pending actions; the plugin's check-ins and results answer 404 from the next request on. The
 * plugin authenticates with an API key: revoke that key too (`key revoke`) so that it cannot
 * register again.
 */
export const wordpressRevoke = async (args: string[], io: CliIO) => {
  const values = parseOptions(args, { site: { type: 'string' } });
  const siteKey = values.site;
  if (!siteKey) throw new UsageError('wordpress revoke needs --site SITE_KEY');
  const revoked = await withStore(databaseLocation(values, io), (store) => store.wordpress.revoke(siteKey));
  if (!revoked) throw new Error(`the site "${siteKey}" has no WordPress installation`);
  io.out(
    values.json
      ? JSON.stringify({ revoked: true, site_key: siteKey })
      : `Removed the WordPress installation of site ${siteKey} and its pending actions.\nIts plugin's API key still works: revoke it too (sitebeacon key revoke KEY) so that it cannot register again.`,
  );
};
