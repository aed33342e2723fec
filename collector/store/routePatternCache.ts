import { parseRoutePattern, type RoutePattern } from '../core/routes';
import type { RoutePatternStore } from './contract/routePatterns';

/**
 * A site's route patterns as each performance session's route is worked out with them
 * (docs/vitals.md, "Routes"), read once per `ttlMs` per site rather than once per session: a
 * pattern added or removed (`sitebeacon site routes`, in another process) applies to the sessions
 * received from at most `ttlMs` later. At most `maxEntries` sites are kept (then all are dropped).
 * A stored pattern that no longer parses (a later collector's stricter rule) is left out.
 *
 * @example
 * const patternsOf = routePatternCache(store.routes);
 * routeOf(session.page_url, await patternsOf(siteKey));
 */
export const routePatternCache = (
  routes: RoutePatternStore,
  { ttlMs = 5000, maxEntries = 10_000, now = () => performance.now() }: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
) => {
  const cache = new Map<string, { patterns: Promise<RoutePattern[]>; until: number }>();
  return (siteKey: string): Promise<RoutePattern[]> => {
    const cached = cache.get(siteKey);
    if (cached && cached.until > now()) return cached.patterns;
    if (cache.size >= maxEntries) cache.clear();
    const patterns = routes.list(siteKey).then((texts) =>
      texts.flatMap((text) => {
        const parsed = parseRoutePattern(text);
        return 'pattern' in parsed ? [parsed.pattern] : [];
      }),
    );
    cache.set(siteKey, { patterns, until: now() + ttlMs });
    // A failed read is not kept: the next session asks again.
    patterns.catch(() => cache.get(siteKey)?.patterns === patterns && cache.delete(siteKey));
    return patterns;
  };
};
