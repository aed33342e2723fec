import { defineRoute, type Route } from '../http/route';
import { ConnectivitySchema } from '../schemas/answers/serviceAnswers';

/**
 * `GET /api/test-connectivity` (spec sections 4 and 5.1): 200 `{"status":"success"}`, no
 * credentials, stores nothing. It proves connectivity only, so any origin may read it.
 */
export const connectivityRoutes = (): Route[] => [
  defineRoute({
    method: 'GET',
    path: '/api/test-connectivity',
    tag: 'Collection',
    summary: 'Connectivity check: no credentials, stores nothing',
    auth: 'none',
    responses: { 200: { description: 'Connected', schema: ConnectivitySchema } },
    handle: ({ event }) => {
      event.res.headers.set('access-control-allow-origin', '*');
      event.res.headers.set('cache-control', 'no-store');
      return { status: 'success' as const };
    },
  }),
];
