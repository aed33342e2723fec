import type { Database } from 'better-sqlite3';
import type { ApiKey, Site } from '../../core/records';
import type { ApiKeyStore, SiteStore } from '../contract';
import { insertSql, toRecord, type Row } from './rows';

/** Sites and API keys in SQLite. Rarely written: each write commits on its own, at once. */
export const sqliteSites = (db: Database): { sites: SiteStore; apiKeys: ApiKeyStore } => {
  const SITE_COLUMNS = ['site_key', 'name', 'allowed_origins', 'created_at'];
  const selectSite = db.prepare<[string], Row>('SELECT * FROM sites WHERE site_key = ?');
  const selectSites = db.prepare<[], Row>('SELECT * FROM sites ORDER BY site_key');
  const insertSite = db.prepare(insertSql('sites', SITE_COLUMNS));
  const upsertSite = db.prepare(
    `${insertSql('sites', SITE_COLUMNS)}
     ON CONFLICT (site_key) DO UPDATE SET name = excluded.name, allowed_origins = excluded.allowed_origins`,
  );
  const siteRow = (site: Pick<Site, 'site_key' | 'name' | 'allowed_origins'>) => ({
    site_key: site.site_key,
    name: site.name,
    allowed_origins: JSON.stringify(site.allowed_origins),
    created_at: Date.now(),
  });
  const getSite = (siteKey: string) => {
    const row = selectSite.get(siteKey);
    return row && toRecord<Site>(row);
  };

  const insertApiKey = db.prepare(insertSql('api_keys', ['key_hash', 'site_key', 'name', 'created_at']));
  const selectApiKey = db.prepare<[string], Row>('SELECT * FROM api_keys WHERE key_hash = ?');
  const findApiKey = (keyHash: string) => {
    const row = selectApiKey.get(keyHash);
    return row && toRecord<ApiKey>(row);
  };

  return {
    sites: {
      async get(siteKey) {
        return getSite(siteKey);
      },
      async list() {
        return selectSites.all().map((row) => toRecord<Site>(row));
      },
      async create(site) {
        insertSite.run(siteRow(site));
        return getSite(site.site_key)!;
      },
      async put(site) {
        upsertSite.run(siteRow(site));
        return getSite(site.site_key)!;
      },
    },
    apiKeys: {
      async create({ key_hash, name, site_key }) {
        insertApiKey.run({ key_hash, site_key: site_key ?? null, name, created_at: Date.now() });
        return findApiKey(key_hash)!;
      },
      async findByHash(keyHash) {
        return findApiKey(keyHash);
      },
    },
  };
};
