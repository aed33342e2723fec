import type { ApiKey, Site } from '../../core/records';
import type { ApiKeyStore, SiteStore } from '../contract';
import type { Pool } from './pool';
import { run, toRecord } from './rows';

const INSERT_SITE = 'INSERT INTO sites (site_key, name, allowed_origins, created_at) VALUES ($1, $2, $3, $4)';

/** Sites and API keys in PostgreSQL. Rarely written: each write commits on its own, at once. */
export const postgresSites = (pool: Pool): { sites: SiteStore; apiKeys: ApiKeyStore } => {
  const siteValues = (site: Pick<Site, 'site_key' | 'name' | 'allowed_origins'>) => [site.site_key, site.name, site.allowed_origins, Date.now()];
  const one = async <T>(text: string, values: unknown[]) => {
    const { rows } = await run(pool, text, values);
    return rows[0] && toRecord<T>(rows[0]);
  };
  return {
    sites: {
      get: (siteKey) => one<Site>('SELECT * FROM sites WHERE site_key = $1', [siteKey]),
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
    },
    apiKeys: {
      async create({ key_hash, name, site_key }) {
        return (await one<ApiKey>('INSERT INTO api_keys (key_hash, site_key, name, created_at) VALUES ($1, $2, $3, $4) RETURNING *', [
          key_hash, site_key, name, Date.now(),
        ]))!;
      },
      findByHash: (keyHash) => one<ApiKey>('SELECT * FROM api_keys WHERE key_hash = $1', [keyHash]),
    },
  };
};
