import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { revokeAndConfirm } from './revokeAndConfirm';

/**
 * `sitebeacon wordpress revoke --site SITE_KEY`: removes the site's WordPress installation and its
 * pending actions; the plugin's check-ins and results answer 404 from the next request on. The
 * plugin authenticates with an API key: revoke that key too (`key revoke`) so that it cannot
 * register again.
 */
export const wordpressRevoke = defineCommand({
  name: ['wordpress', 'revoke'],
  summary: "remove the site's WordPress installation and its pending actions",
  help: "removes the site's WordPress installation and its pending actions (check-ins answer 404); revoke the plugin's API key too, or it can register again",
  flags: { site: { type: 'string', value: 'SITE_KEY', required: true, help: 'the WordPress site' }, ...DATABASE_FLAGS },
  run: ({ values }, io) => {
    const siteKey = values.site!;
    return revokeAndConfirm(values, io, {
      revoke: (store) => store.wordpress.revoke(siteKey),
      notFound: `the site "${siteKey}" has no WordPress installation`,
      json: () => ({ revoked: true, site_key: siteKey }),
      text: () =>
        `Removed the WordPress installation of site ${siteKey} and its pending actions.\nIts plugin's API key still works: revoke it too (sitebeacon key revoke KEY) so that it cannot register again.`,
    });
  },
});
