import type { Database } from 'better-sqlite3';
import type { SourceMapInfo, SourceMapStore } from '../contract/sourceMaps';
import { packMapText, unpackMapText } from '../sourceMapText';
import type { Write } from './groupCommit';
import { siteCheck } from './siteCheck';

type InfoRow = Omit<SourceMapInfo, 'uploaded_at'> & { uploaded_at: number };

const infoOf = (row: InfoRow): SourceMapInfo => ({ ...row, uploaded_at: new Date(row.uploaded_at).toISOString() });

/**
 * Source maps in SQLite (store/contract/sourceMaps.ts): one row per site, release and URL, the
 * text gzipped (sourceMapText.ts). Writes go through the group commit with the site checked in its
 * transaction (siteCheck.ts); reads are lookups by primary key or the debug ID index.
 */
export const sqliteSourceMaps = (db: Database, write: Write): SourceMapStore => {
  const requireSite = siteCheck(db);
  const upsert = db.prepare(
    `INSERT INTO source_maps (site_key, release, url, debug_id, map, size, uploaded_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (site_key, release, url) DO UPDATE SET debug_id = excluded.debug_id, map = excluded.map, size = excluded.size, uploaded_at = excluded.uploaded_at`,
  );
  const selectText = db.prepare<[string, string, string], Buffer>('SELECT map FROM source_maps WHERE site_key = ? AND release = ? AND url = ?').pluck();
  const selectByDebugId = db
    .prepare<[string, string], Buffer>('SELECT map FROM source_maps WHERE site_key = ? AND debug_id = ? ORDER BY uploaded_at DESC LIMIT 1')
    .pluck();
  const selectDebugIds = db
    .prepare<[string, string], string | null>('SELECT DISTINCT debug_id FROM source_maps WHERE site_key = ? AND url = ? LIMIT 2')
    .pluck();
  const selectList = db.prepare<[string, string], InfoRow>(
    'SELECT release, url, debug_id, size, uploaded_at FROM source_maps WHERE site_key = ? AND release = ? ORDER BY url',
  );
  const deleteRelease = db.prepare('DELETE FROM source_maps WHERE site_key = ? AND release = ?');
  const deleteOne = db.prepare('DELETE FROM source_maps WHERE site_key = ? AND release = ? AND url = ?');
  return {
    async put(siteKey, { release, url, debug_id, text }, at = Date.now()) {
      const packed = await packMapText(text);
      await write(() => {
        requireSite(siteKey);
        upsert.run(siteKey, release, url, debug_id, packed, text.length, at);
      });
    },
    text: (siteKey, release, url) => unpackMapText(selectText.get(siteKey, release, url)),
    textByDebugId: (siteKey, debugId) => unpackMapText(selectByDebugId.get(siteKey, debugId)),
    packed: async (siteKey, release, url) => selectText.get(siteKey, release, url),
    packedByDebugId: async (siteKey, debugId) => selectByDebugId.get(siteKey, debugId),
    debugIds: async (siteKey, url) => selectDebugIds.all(siteKey, url),
    list: async (siteKey, release) => selectList.all(siteKey, release).map(infoOf),
    delete: (siteKey, release, url) =>
      write(() => (url === undefined ? deleteRelease.run(siteKey, release) : deleteOne.run(siteKey, release, url)).changes),
  };
};
