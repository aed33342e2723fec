/**
 * The one rejection of a write that stores rows under a site key no site has (any longer), part of
 * the storage contract (contract.ts): a report, a WordPress install, an action, a CSP project, an
 * agent or an API key made for a site. The key was looked up before another process ran `site
 * rotate-key` (a PostgreSQL collector caches a site for 5 s, siteCache.ts), or was never a site's.
 * Nothing of the write is stored. Every route answers it as the lookup answers an unknown key, 404
 * `unknown_site` (http/mountRoutes.ts): it is the client's key that is wrong, not the server.
 *
 * @example
 * await store.errors.insert('oldkey', reports, context).catch((error) => {
 *   if (error instanceof UnknownSiteError) return 0; // error.siteKey == 'oldkey', nothing stored
 *   throw error;
 * });
 */
export class UnknownSiteError extends Error {
  override readonly name = 'UnknownSiteError';
  constructor(readonly siteKey: string) {
    super(`no site has the key "${siteKey}"`);
  }
}
