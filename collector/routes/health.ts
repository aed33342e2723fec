import { defineRoute, type Route } from '../http/route';
import type { Store } from '../store/contract';
import { UnhealthyStoreError } from '../store/unhealthyStoreError';
import { HealthySchema, UnhealthySchema } from '../schemas/answers/serviceAnswers';

/**
 * `GET /api/health` (docs/durability.md, "Health"): 200 `{"status":"ok"}` while the store can write, 503
 * `{"status":"unhealthy","reason":...}` when it cannot, for load balancers and monitors. No
 * credentials; the reason names what failed, never the error's detail (a path, a host): "the disk
 * is full" and "the database file was deleted" or "replaced" (store/unhealthyStoreError.ts), else
 * "the store cannot write". Kept apart
 * from `test-connectivity`, which stays a pure connectivity answer (spec section 4).
 *
 * @example
 * const routes = [...connectivityRoutes(), ...healthRoutes({ store })];
 */
export const healthRoutes = ({ store }: { store: Store }): Route[] => [
  defineRoute({
    method: 'GET',
    path: '/api/health',
    tag: 'Collection',
    summary: 'Health: whether this collector can store reports now (200 ok, 503 unhealthy)',
    auth: 'none',
    responses: {
      200: { description: 'The store can write', schema: HealthySchema },
      503: { description: 'The store cannot write', schema: UnhealthySchema },
    },
    async handle({ event }) {
      event.res.headers.set('cache-control', 'no-store');
      try {
        await store.checkWritable();
        return { status: 'ok' as const };
      } catch (error) {
        event.res.status = 503;
        return { status: 'unhealthy' as const, reason: error instanceof UnhealthyStoreError ? error.reason : 'the store cannot write' };
      }
    },
  }),
];
