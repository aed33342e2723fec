import type { H3 } from 'h3';
import { methodNotAllowed } from '../http/methodNotAllowed';

/**
 * `GET /api/test-connectivity` (spec section 4): 200 `{"status":"success"}`, no credentials,
 * stores nothing. It proves connectivity only, so any origin may read it.
 */
export const connectivityRoutes = (app: H3) => {
  app.get('/api/test-connectivity', (event) => {
    event.res.headers.set('access-control-allow-origin', '*');
    event.res.headers.set('cache-control', 'no-store');
    return { status: 'success' };
  });
  methodNotAllowed(app, '/api/test-connectivity', ['GET', 'HEAD']);
};
