/**
 * The schema version that adds routes (docs/vitals.md, "Routes"), as the SQLite store's
 * (sqlite/routeSchema.ts). Sessions stored before keep a null route and are grouped by their page
 * URL. The sessions' index is left as it is: a route beside a page URL of 2,048 characters could pass
 * the size PostgreSQL allows an index entry, and these reads visit the rows anyway.
 */
export const POSTGRES_ROUTES_MIGRATION = `
  CREATE TABLE route_patterns (
    site_key TEXT NOT NULL REFERENCES sites (site_key),
    pattern TEXT NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (site_key, pattern)
  );
  ALTER TABLE performance_sessions ADD COLUMN route TEXT;`;
