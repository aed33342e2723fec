/**
 * The schema version that adds routes (docs/vitals.md, "Routes"): each performance session's route,
 * set at ingest from its page URL and its site's patterns (core/routes.ts), and the sites' patterns
 * in the order they are matched. Sessions stored before keep a null route: the views group them by
 * their page URL, as before (working out every stored URL's route would make the upgrade as long as
 * the database is large). The index the per-page view reads its groups from, in place of the one
 * of version 9, holds the route too, and the device its `device=` reads (docs/vitals.md, "By device").
 */
export const ROUTES_MIGRATION = `
  CREATE TABLE route_patterns (
    site_key TEXT NOT NULL REFERENCES sites (site_key),
    pattern TEXT NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (site_key, pattern)
  ) WITHOUT ROWID;
  ALTER TABLE performance_sessions ADD COLUMN route TEXT;
  DROP INDEX performance_sessions_by_site_time_page;
  CREATE INDEX performance_sessions_by_site_time_page ON performance_sessions (site_key, updated_at, route, page_url, received_at, device);`;
