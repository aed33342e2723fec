import type { RoutePatternStore } from '../contract/routePatterns';
import { UnknownSiteError } from '../unknownSiteError';
import type { Write } from './groupCommit';
import type { Pool } from './pool';
import { run } from './rows';

/**
 * A site's route patterns in PostgreSQL, as sqlite/routePatterns.ts. An addition locks the site's
 * row first (FOR UPDATE), so that two processes adding at once count one after the other and never
 * pass the bound; no row there: UnknownSiteError.
 */
export const postgresRoutePatterns = (pool: Pool, write: Write): RoutePatternStore => ({
  async list(siteKey) {
    const { rows } = await run<{ pattern: string }>(pool, 'SELECT pattern FROM route_patterns WHERE site_key = $1 ORDER BY position', [siteKey]);
    return rows.map((row) => row.pattern);
  },
  add: (siteKey, pattern, max) =>
    write({
      siteKey,
      run: async (client) => {
        if (!(await run(client, 'SELECT 1 FROM sites WHERE site_key = $1 FOR UPDATE', [siteKey])).rows.length) throw new UnknownSiteError(siteKey);
        const { rows } = await run<{ pattern: string }>(client, 'SELECT pattern FROM route_patterns WHERE site_key = $1', [siteKey]);
        if (rows.some((row) => row.pattern === pattern)) return 'exists' as const;
        if (rows.length >= max) return 'full' as const;
        await run(
          client,
          `INSERT INTO route_patterns (site_key, pattern, position)
           SELECT $1, $2, coalesce(MAX(position), 0) + 1 FROM route_patterns WHERE site_key = $1`,
          [siteKey, pattern],
        );
        return 'added' as const;
      },
    }),
  remove: (siteKey, pattern) =>
    write({ siteKey, run: async (client) => (await run(client, 'DELETE FROM route_patterns WHERE site_key = $1 AND pattern = $2', [siteKey, pattern])).rowCount! > 0 }),
});
