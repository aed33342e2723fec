import type { SourceMapInfo, SourceMapStore } from '../contract/sourceMaps';
import { packMapText, unpackMapText } from '../sourceMapText';
import type { Write } from './groupCommit';
import type { Pool } from './pool';
import { run } from './rows';

type InfoRow = Omit<SourceMapInfo, 'uploaded_at' | 'size'> & { uploaded_at: string; size: string };

/**
 * Source maps in PostgreSQL, as sqlite/sourceMaps.ts: the text gzipped in a bytea (passed to `pg` as
 * a Buffer, not through rows.ts's param, which would take it for JSON). A map under a key no site
 * has fails its foreign key: UnknownSiteError (groupCommit.ts).
 */
export const postgresSourceMaps = (pool: Pool, write: Write): SourceMapStore => {
  const packedOf = async (text: string, values: unknown[]) => (await run<{ map: Buffer }>(pool, text, values)).rows[0]?.map;
  const bytesOf = async (text: string, values: unknown[]) => unpackMapText(await packedOf(text, values));
  const BY_URL = 'SELECT map FROM source_maps WHERE site_key = $1 AND release = $2 AND url = $3';
  const BY_DEBUG_ID = 'SELECT map FROM source_maps WHERE site_key = $1 AND debug_id = $2 ORDER BY uploaded_at DESC LIMIT 1';
  return {
    async put(siteKey, { release, url, debug_id, text }, at = Date.now()) {
      const packed = await packMapText(text);
      await write({
        siteKey,
        run: async (client) => {
          await client.query(
            `INSERT INTO source_maps (site_key, release, url, debug_id, map, size, uploaded_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (site_key, release, url) DO UPDATE SET debug_id = excluded.debug_id, map = excluded.map, size = excluded.size,
               uploaded_at = excluded.uploaded_at`,
            [siteKey, release, url, debug_id, packed, text.length, at],
          );
        },
      });
    },
    text: (siteKey, release, url) => bytesOf(BY_URL, [siteKey, release, url]),
    textByDebugId: (siteKey, debugId) => bytesOf(BY_DEBUG_ID, [siteKey, debugId]),
    packed: (siteKey, release, url) => packedOf(BY_URL, [siteKey, release, url]),
    packedByDebugId: (siteKey, debugId) => packedOf(BY_DEBUG_ID, [siteKey, debugId]),
    async debugIds(siteKey, url) {
      const { rows } = await run<{ debug_id: string | null }>(pool, 'SELECT DISTINCT debug_id FROM source_maps WHERE site_key = $1 AND url = $2 LIMIT 2', [
        siteKey,
        url,
      ]);
      return rows.map((row) => row.debug_id);
    },
    async list(siteKey, release) {
      const { rows } = await run<InfoRow>(
        pool,
        'SELECT release, url, debug_id, size, uploaded_at FROM source_maps WHERE site_key = $1 AND release = $2 ORDER BY url COLLATE "C"',
        [siteKey, release],
      );
      return rows.map((row) => ({ ...row, size: Number(row.size), uploaded_at: new Date(Number(row.uploaded_at)).toISOString() }));
    },
    delete: (siteKey, release, url) =>
      write({
        run: async (client) =>
          (url === undefined
            ? await run(client, 'DELETE FROM source_maps WHERE site_key = $1 AND release = $2', [siteKey, release])
            : await run(client, 'DELETE FROM source_maps WHERE site_key = $1 AND release = $2 AND url = $3', [siteKey, release, url])
          ).rowCount ?? 0,
      }),
  };
};
