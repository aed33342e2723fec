import type { H3Event } from 'h3';
import type { Site, Store } from '../store/store';
import { apiError } from './apiError';
import { allowOrigin } from './cors';

/**
 * Finds the site a browser-facing request is for (the default site when the path has no key)
 * and checks the request's `Origin` against the site's allowed origins. Requests without an
 * `Origin`, as from servers, are accepted.
 */
export const siteForRequest = async (event: H3Event, store: Store, siteKey?: string): Promise<Site> => {
  const site = siteKey === undefined ? await store.getDefaultSite() : await store.getSite(siteKey);
  if (!site) throw apiError(404, 'unknown_site', `no site has the key "${siteKey}"`);
  const origin = event.req.headers.get('origin');
  if (origin !== null) {
    if (!site.allowedOrigins.includes(origin)) {
      throw apiError(403, 'origin_not_allowed', `origin ${origin} is not allowed to report to this site`);
    }
    allowOrigin(event, origin);
  }
  return site;
};
