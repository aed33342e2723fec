import type { H3 } from 'h3';
import { apiError } from './apiError';

/**
 * Answers every method not registered on `route` with 405 and an `Allow` header. Without it
 * h3 answers 404 for a wrong method. Register after the route's own methods.
 */
export const methodNotAllowed = (app: H3, route: string, allowed: string[]) => {
  const allow = allowed.join(', ');
  app.all(route, (event) => {
    throw apiError(405, 'method_not_allowed', `${event.req.method} is not allowed here; use ${allow}`, {
      allow,
    });
  });
};
