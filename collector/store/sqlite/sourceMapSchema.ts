/**
 * The schema version that adds source maps (docs/source-maps.md, "Uploading maps"): one row per
 * site, release and script URL, the map's text gzipped (store/sourceMapText.ts), its debug ID
 * indexed for the lookup by ID.
 */
export const SOURCE_MAPS_MIGRATION = `
  CREATE TABLE source_maps (
    site_key TEXT NOT NULL,
    release TEXT NOT NULL,
    url TEXT NOT NULL,
    debug_id TEXT,
    map BLOB NOT NULL,
    size INTEGER NOT NULL,
    uploaded_at INTEGER NOT NULL,
    PRIMARY KEY (site_key, release, url)
  );
  CREATE INDEX source_maps_by_debug_id ON source_maps (site_key, debug_id, uploaded_at) WHERE debug_id IS NOT NULL;
  CREATE INDEX source_maps_by_upload ON source_maps (uploaded_at);
`;
