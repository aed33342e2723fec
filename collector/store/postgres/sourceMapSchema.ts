/** Source maps (docs/source-maps.md, "Uploading maps"), as the SQLite store's sqlite/sourceMapSchema.ts. */
export const POSTGRES_SOURCE_MAPS_MIGRATION = `
  CREATE TABLE source_maps (
    site_key TEXT NOT NULL REFERENCES sites (site_key),
    release TEXT NOT NULL,
    url TEXT NOT NULL,
    debug_id TEXT,
    map BYTEA NOT NULL,
    size BIGINT NOT NULL,
    uploaded_at BIGINT NOT NULL,
    PRIMARY KEY (site_key, release, url)
  );
  CREATE INDEX source_maps_by_debug_id ON source_maps (site_key, debug_id, uploaded_at) WHERE debug_id IS NOT NULL;
  CREATE INDEX source_maps_by_upload ON source_maps (uploaded_at);
`;
