import type { ApiKey, Site } from '../../core/records';
import type { ApiKeyStore, SiteStore } from '../contract/sites';
import type { Write } from './groupCommit';
import type { Client, Pool } from './pool';
import { run, toRecord } from './rows';

const INSERT_SITE = 'INSERT INTO sites (site_key, name, allowed_origins, created_at) VALUES ($1, $2, $3, $4)';

// Every table of the store's schema that files rows by site, from the catalogue itself: a later
// migration's table moves too. `current_schema()`: the one the connection's search_path names.
const SITE_TABLES = `SELECT table_name FROM information_schema.columns
  WHERE table_schema = current_schema() AND column_name = 'site_key' AND table_name <> 'sites' ORDER BY table_name`;

// Dashboard users limited to the site keep seeing it: its key in their lists is replaced, in order.
const MOVE_USERS = `UPDATE users SET site_keys = (
    SELECT json_agg(CASE WHEN key = $2 THEN $1 ELSE key END ORDER BY position)::text
    FROM jsonb_array_elements_text(users.site_keys::jsonb) WITH ORDINALITY AS listed (key, position)
  ) WHERE site_keys::jsonb ? $2`;

/**
 * `site rotate-key` in the group commit's transaction. The old row is locked first (FOR UPDATE):
 * an insert under the old key in another collector holds a KEY SHARE lock on it for its foreign
 * key, so the rotation waits for those to commit (each UPDATE then sees their rows and moves them),
 * and later ones wait for the rotation and then fail their foreign key: the old key stores nothing
 * more. The new row first, the rows that refer to the site next, the old row last: foreign keys hold.
 */
const rotate = async (client: Client, siteKey: string, newSiteKey: string) => {
  const { rows } = await run(client, 'SELECT site_key FROM sites WHERE site_key = $1 FOR UPDATE', [siteKey]);
  if (!rows.length) return false;
  await run(client, 'INSERT INTO sites (site_key, name, allowed_origins, created_at) SELECT $1, name, allowed_origins, created_at FROM sites WHERE site_key = $2', [
    newSiteKey, siteKey,
  ]);
  const tables = (await client.query<{ table_name: string }>(SITE_TABLES)).rows.map((row) => row.table_name);
  for (const table of tables) await run(client, `UPDATE "${table}" SET site_key = $1 WHERE site_key = $2`, [newSiteKey, siteKey]);
  await run(client, MOVE_USERS, [newSiteKey, siteKey]);
  await run(client, 'DELETE FROM sites WHERE site_key = $1', [siteKey]);
  return true;
};

/**
 * Sites and API keys in PostgreSQL. Rarely written: each site write commits on its own, at once,
 * but a key rotation goes through the group commit (`write`), after the reports queued under the
 * old key, and so does a new API key (for its site check).
 */
export const postgresSites = (pool: Pool, write: Write) => {
  const siteValues = (site: Pick<Site, 'site_key' | 'name' | 'allowed_origins'>) => [site.site_key, site.name, site.allowed_origins, Date.now()];
  const one = async <T>(text: string, values: unknown[]) => {
    const { rows } = await run(pool, text, values);
    return rows[0] && toRecord<T>(rows[0]);
  };
  const getSite = (siteKey: string) => one<Site>('SELECT * FROM sites WHERE site_key = $1', [siteKey]);
  return {
    sites: {
      get: getSite,
      async list() {
        return (await run(pool, 'SELECT * FROM sites ORDER BY site_key COLLATE "C"')).rows.map((row) => toRecord<Site>(row));
      },
      async create(site) {
        return (await one<Site>(`${INSERT_SITE} RETURNING *`, siteValues(site)))!;
      },
      async put(site) {
        return (await one<Site>(
          `${INSERT_SITE} ON CONFLICT (site_key) DO UPDATE SET name = excluded.name, allowed_origins = excluded.allowed_origins RETURNING *`,
          siteValues(site),
        ))!;
      },
      async rotateKey(siteKey, newSiteKey) {
        const rotated = await write({ run: (client) => rotate(client, siteKey, newSiteKey) });
        return rotated ? getSite(newSiteKey) : undefined;
      },
    } satisfies SiteStore,
    apiKeys: {
      // Through the group commit for its `siteKey`: a key made for a site another process has just
      // rotated rejects with UnknownSiteError (groupCommit.ts; contract.ts).
      async create({ key_hash, name, site_key }) {
        const row = await write({
          siteKey: site_key,
          run: async (client) =>
            (await run(client, 'INSERT INTO api_keys (key_hash, site_key, name, created_at) VALUES ($1, $2, $3, $4) RETURNING *', [
              key_hash, site_key, name, Date.now(),
            ])).rows[0]!,
        });
        return toRecord<ApiKey>(row);
      },
      findByHash: (keyHash) => one<ApiKey>('SELECT * FROM api_keys WHERE key_hash = $1', [keyHash]),
      async revoke(keyHash) {
        return ((await run(pool, 'DELETE FROM api_keys WHERE key_hash = $1', [keyHash])).rowCount ?? 0) > 0;
      },
    } satisfies ApiKeyStore,
  };
};
