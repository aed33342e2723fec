import { routeOf } from '../core/routes';
import type { RoutedSession } from './contract/performanceSessions';

/**
 * The route a session is stored with (docs/vitals.md, "Routes"): the one its caller worked out with
 * the site's patterns, else its page URL's by core/routes.ts's default rules; none for a submission
 * without a page URL, which keeps the route stored with the session's first.
 */
export const sessionRoute = (session: RoutedSession): string | undefined =>
  session.route ?? (session.page_url === undefined ? undefined : routeOf(session.page_url));
