import type { Database } from 'better-sqlite3';
import type { ApiKey, Site } from '../../core/records';
import type { ApiKeyStore, SiteStore } from '../contract/sites';
import type { Write } from './groupCommit';
import { siteCheck } from './siteCheck';
import { insertSql, toRecord, type Row } from './rows';

/**
 * Sites and API keys in SQLite. Rarely written: each write commits on its own, at once, but a key
 * rotation goes through the group commit (`write`), after the reports queued under the old key
 * (`reportsCommitted`: the writer thread's queue, reportQueue.ts) have committed.
 *
 * Every browser request looks its site up. A lookup is kept until the end of the current turn of
 * the event loop (docs/performance.md, "The HTTP thread": a read on this connection after the
 * writer thread's last commit re-reads its pages, a noticeable share of a single report's time); the requests one turn serves
 * arrived together, before any of them was looked up, so a change committed before a request was
 * sent (`site rotate-key` beside `serve`, docs/hostile-input.md, "Revocation") is seen by that request, as before.
 * Changes made through this store drop the kept lookups at once.
 */
export const sqliteSites = (
  db: Database,
  write: Write,
  reportsCommitted: () => Promise<void>,
) => {
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
  const thisTurn = new Map<string, Site>();
  let forgetting = false;
  const lookUp = (siteKey: string) => {
    const kept = thisTurn.get(siteKey);
    if (kept) return kept;
    const site = getSite(siteKey);
    if (!site) return undefined;
    thisTurn.set(siteKey, site);
    if (!forgetting) {
      forgetting = true;
      setImmediate(() => {
        forgetting = false;
        thisTurn.clear();
      });
    }
    return site;
  };

  const insertApiKey = db.prepare(insertSql('api_keys', ['key_hash', 'site_key', 'name', 'created_at']));
  const selectApiKey = db.prepare<[string], Row>('SELECT * FROM api_keys WHERE key_hash = ?');
  const deleteApiKey = db.prepare('DELETE FROM api_keys WHERE key_hash = ?');
  const requireSite = siteCheck(db);
  // Every table that files rows by site, from the schema itself: a later migration's table moves too.
  const siteTables = () =>
    (db.prepare(`SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = 'site_key'`).all() as Array<{ name: string }>)
      .map(({ name }) => name)
      .filter((name) => name != 'sites');
  const findApiKey = (keyHash: string) => {
    const row = selectApiKey.get(keyHash);
    return row && toRecord<ApiKey>(row);
  };

  return {
    sites: {
      async get(siteKey) {
        return lookUp(siteKey);
      },
      async list() {
        return selectSites.all().map((row) => toRecord<Site>(row));
      },
      async create(site) {
        thisTurn.clear();
        insertSite.run(siteRow(site));
        return getSite(site.site_key)!;
      },
      async put(site) {
        thisTurn.clear();
        upsertSite.run(siteRow(site));
        return getSite(site.site_key)!;
      },
      async rotateKey(siteKey, newSiteKey) {
        if (!getSite(siteKey)) return undefined;
        await reportsCommitted();
        thisTurn.clear();
        // The new row first, the rows that refer to the site next, the old row last: foreign keys
        // hold at every step.
        await write(() => {
          db.prepare('INSERT INTO sites (site_key, name, allowed_origins, created_at) SELECT ?, name, allowed_origins, created_at FROM sites WHERE site_key = ?').run(newSiteKey, siteKey);
          for (const table of siteTables()) db.prepare(`UPDATE "${table}" SET site_key = ? WHERE site_key = ?`).run(newSiteKey, siteKey);
          // Dashboard users limited to the site keep seeing it: its key in their lists is replaced.
          db.prepare(
            `UPDATE users SET site_keys = (SELECT json_group_array(CASE WHEN value = @old THEN @new ELSE value END) FROM json_each(users.site_keys))
             WHERE EXISTS (SELECT 1 FROM json_each(users.site_keys) WHERE value = @old)`,
          ).run({ old: siteKey, new: newSiteKey });
          db.prepare('DELETE FROM sites WHERE site_key = ?').run(siteKey);
        });
        thisTurn.clear();
        return getSite(newSiteKey);
      },
    } satisfies SiteStore,
    apiKeys: {
      async create({ key_hash, name, site_key }) {
        // A key for a site another process has just rotated: UnknownSiteError (siteCheck.ts).
        db.transaction(() => {
          requireSite(site_key);
          insertApiKey.run({ key_hash, site_key: site_key ?? null, name, created_at: Date.now() });
        }).immediate();
        return findApiKey(key_hash)!;
      },
      async findByHash(keyHash) {
        return findApiKey(keyHash);
      },
      async revoke(keyHash) {
        return deleteApiKey.run(keyHash).changes > 0;
      },
    } satisfies ApiKeyStore,
  };
};
