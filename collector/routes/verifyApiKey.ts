import type { H3 } from 'h3';
import { HTTPError } from 'h3';
import { requireApiKey } from '../http/apiKeys';
import { methodNotAllowed } from '../http/methodNotAllowed';
import type { Store } from '../store/store';

/**
 * `POST /api/v1/verify-api-key` (spec section 5): the WordPress plugin's credential check.
 * 200 `{"valid": true, "scope": ...}` or 401 `{"valid": false, "error": {...}}`.
 */
export const verifyApiKeyRoutes = (app: H3, { store }: { store: Store }) => {
  app.post('/api/v1/verify-api-key', async (event) => {
    try {
      const key = await requireApiKey(event, store);
      return {
        valid: true,
        scope: key.siteKey ? { type: 'site', site_key: key.siteKey } : { type: 'installation' },
        name: key.name,
        created_at: key.createdAt,
      };
    } catch (error) {
      if (!HTTPError.isError(error) || error.status != 401) throw error;
      event.res.status = 401;
      error.headers?.forEach((value, name) => event.res.headers.set(name, value));
      return { valid: false, error: { code: 'unauthorized', message: error.message } };
    }
  });
  methodNotAllowed(app, '/api/v1/verify-api-key', ['POST']);
};
