import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { H3Event } from 'h3';
import type { ApiKey, Store } from '../store/store';
import { apiError } from './apiError';

/** A new secret API key: "sbk_" and 32 URL-safe characters (192 random bits). Shown once. */
export const newApiKey = () => `sbk_${randomBytes(24).toString('base64url')}`;

/**
 * Only this is stored. A key has 192 random bits, so a fast hash is enough: there is nothing to
 * guess a key from, and a slow password hash would only cost every request.
 */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** The key a request presents: `Authorization: Bearer KEY`, else `X-API-Key: KEY`. */
const presentedKey = (event: H3Event) =>
  /^Bearer\s+(\S+)\s*$/i.exec(event.req.headers.get('authorization') ?? '')?.[1] ?? event.req.headers.get('x-api-key')?.trim();

/**
 * Checks the request's API key: 401 `unauthorized` without one or with an unknown one.
 * The lookup is by SHA-256 of the key, so its timing says nothing about the key; the final
 * comparison is constant-time all the same.
 */
export const requireApiKey = async (event: H3Event, store: Store): Promise<ApiKey> => {
  const key = presentedKey(event);
  if (!key) {
    throw apiError(401, 'unauthorized', 'an API key is required: send Authorization: Bearer KEY (or X-API-Key: KEY)', {
      'www-authenticate': 'Bearer',
    });
  }
  const hash = hashApiKey(key);
  const found = await store.findApiKey(hash);
  if (!found || !timingSafeEqual(Buffer.from(found.keyHash), Buffer.from(hash))) {
    throw apiError(401, 'unauthorized', 'the API key is not valid', { 'www-authenticate': 'Bearer error="invalid_token"' });
  }
  return found;
};

/** A key made for one site may read and change that site only: 403 `forbidden` for another. */
export const requireSiteAccess = (key: ApiKey, siteKey: string) => {
  if (key.siteKey !== undefined && key.siteKey !== siteKey) {
    throw apiError(403, 'forbidden', 'this API key belongs to another site');
  }
};

/**
 * The checks of every `/api/v1/sites/{site_key}/...`-like request: a valid key (401), for this
 * site or the whole installation (403), and a site that exists (404).
 */
export const requireSite = async (event: H3Event, store: Store, siteKey: string) => {
  const key = await requireApiKey(event, store);
  requireSiteAccess(key, siteKey);
  const site = await store.getSite(siteKey);
  if (!site) throw apiError(404, 'unknown_site', `no site has the key "${siteKey}"`);
  return { key, site };
};
