import { HTTPError } from 'h3';
import * as v from 'valibot';
import { ApiErrorBodySchema } from '../http/apiErrorBody';
import { requireApiKey } from '../http/auth';
import { defineRoute, type Route } from '../http/route';
import type { Store } from '../store/contract';
import { ValidApiKeySchema } from '../schemas/answers/serviceAnswers';

/** The check's own 401 answer: not valid, with the one error shape. */
const InvalidApiKeySchema = v.object({ valid: v.literal(false), ...ApiErrorBodySchema.entries });

/**
 * `POST /api/v1/verify-api-key` (spec section 5.2): the WordPress plugin's credential check.
 * 200 `{"valid": true, "scope": ...}` or 401 `{"valid": false, "error": {...}}`: the answer is the
 * check itself, so its authentication is done here rather than by the route table.
 */
export const verifyApiKeyRoutes = ({ store }: { store: Store }): Route[] => [
  defineRoute({
    method: 'POST',
    path: '/api/v1/verify-api-key',
    tag: 'WordPress',
    summary: "The WordPress plugin's credential check",
    auth: 'none',
    responses: {
      200: { description: 'Valid', schema: ValidApiKeySchema },
      401: { description: 'Not valid', schema: InvalidApiKeySchema },
    },
    async handle({ event }) {
      try {
        const key = await requireApiKey(event, store);
        return {
          valid: true as const,
          scope: key.site_key ? { type: 'site' as const, site_key: key.site_key } : { type: 'installation' as const },
          name: key.name,
          created_at: key.created_at,
        };
      } catch (error) {
        if (!HTTPError.isError(error) || error.status != 401) throw error;
        event.res.status = 401;
        error.headers?.forEach((value, name) => event.res.headers.set(name, value));
        return { valid: false as const, error: { code: 'unauthorized', message: error.message } };
      }
    },
  }),
];
