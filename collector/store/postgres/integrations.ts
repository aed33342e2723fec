import type { CspProject, ServerAgent, SiteAction, WordPressInstall } from '../../core/records';
import type { ActionStore, CspProjectStore, ServerAgentStore, WordPressStore } from '../contract/integrations';
import type { Write } from './groupCommit';
import type { Pool } from './pool';
import { run, toRecord, WITH_JSON_STATUS, type Row } from './rows';

/** Ids of rows are int8: a number beyond what JavaScript counts exactly names no row (and is no query). */
const rowId = (id: number) => Number.isSafeInteger(id) && id > 0;

/**
 * The integrations' records in PostgreSQL: WordPress installs and their actions, CSP projects,
 * server agents, as sqlite/integrations.ts. Writes go through the group commit (statements run in
 * its transaction); reads go to the pool.
 */
export const postgresIntegrations = (
  pool: Pool,
  write: Write,
) => {
  const one = async <T>(text: string, values: unknown[], jsonColumns?: Set<string>) => {
    const { rows } = await run(pool, text, values);
    return rows[0] ? toRecord<T>(rows[0], jsonColumns) : undefined;
  };
  /**
   * A statement in the next group commit; resolves to its first row, after COMMIT. With `siteKey`
   * (a row stored under that site) it rejects with UnknownSiteError when no site has the key any
   * longer (groupCommit.ts; contract.ts).
   */
  const written = async (text: string, values: unknown[], siteKey?: string) =>
    write({ siteKey, run: async (client) => (await run(client, text, values)).rows[0] as Row | undefined });

  const getInstall = (siteKey: string) => one<WordPressInstall>('SELECT * FROM wordpress_installs WHERE site_key = $1', [siteKey], WITH_JSON_STATUS);
  const getAction = (id: number) => (rowId(id) ? one<SiteAction>('SELECT * FROM site_actions WHERE id = $1', [id]) : Promise.resolve(undefined));
  const getProject = (id: number) => (rowId(id) ? one<CspProject>('SELECT * FROM csp_projects WHERE id = $1', [id]) : Promise.resolve(undefined));
  const getAgent = (id: string) => one<ServerAgent>('SELECT * FROM server_agents WHERE id = $1', [id], WITH_JSON_STATUS);

  return {
    wordpress: {
      async put(install) {
        await written(
          `INSERT INTO wordpress_installs (site_key, site_url, name, plugin_version, wordpress_version, php_version, registered_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (site_key) DO UPDATE SET site_url = excluded.site_url, name = excluded.name, plugin_version = excluded.plugin_version,
             wordpress_version = excluded.wordpress_version, php_version = excluded.php_version`,
          [install.site_key, install.site_url, install.name, install.plugin_version, install.wordpress_version, install.php_version, Date.now()],
          install.site_key,
        );
        return (await getInstall(install.site_key))!;
      },
      get: getInstall,
      findByUrl: (siteUrl) => one<WordPressInstall>('SELECT * FROM wordpress_installs WHERE site_url = $1', [siteUrl], WITH_JSON_STATUS),
      async recordCheckIn(siteKey, checkIn) {
        await written(
          `UPDATE wordpress_installs SET last_check_in_at = $2, status = $3, plugin_version = coalesce($4, plugin_version),
             wordpress_version = coalesce($5, wordpress_version), php_version = coalesce($6, php_version)
           WHERE site_key = $1`,
          [siteKey, Date.now(), checkIn.status, checkIn.plugin_version, checkIn.wordpress_version, checkIn.php_version],
        );
      },
      async revoke(siteKey) {
        // Pending actions first, then the install, in one transaction: its row count says whether there was one.
        return write({
          run: async (client) => {
            await run(client, `DELETE FROM site_actions WHERE site_key = $1 AND status = 'pending'`, [siteKey]);
            return ((await run(client, 'DELETE FROM wordpress_installs WHERE site_key = $1', [siteKey])).rowCount ?? 0) > 0;
          },
        });
      },
    } satisfies WordPressStore,
    actions: {
      async add(siteKey, { type, payload }) {
        const row = await written(
          `INSERT INTO site_actions (site_key, type, payload, status, created_at) VALUES ($1, $2, $3, 'pending', $4) RETURNING *`,
          [siteKey, type, payload, Date.now()],
          siteKey,
        );
        return toRecord<SiteAction>(row!);
      },
      async pending(siteKey) {
        const { rows } = await run(pool, `SELECT * FROM site_actions WHERE site_key = $1 AND status = 'pending' ORDER BY id`, [siteKey]);
        return rows.map((row) => toRecord<SiteAction>(row));
      },
      get: getAction,
      async complete(id, { status, message, result }) {
        if (!rowId(id)) return;
        await written('UPDATE site_actions SET status = $2, message = $3, result = $4, completed_at = $5 WHERE id = $1', [
          id, status, message, result, Date.now(),
        ]);
      },
    } satisfies ActionStore,
    cspProjects: {
      async create(project) {
        const now = Date.now();
        const row = await written(
          'INSERT INTO csp_projects (site_key, name, mode, base_policy, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING *',
          [project.site_key, project.name, project.mode, project.base_policy, now],
          project.site_key,
        );
        return toRecord<CspProject>(row!);
      },
      async list(siteKey?) {
        const { rows } = await run(pool, 'SELECT * FROM csp_projects WHERE $1::text IS NULL OR site_key = $1 ORDER BY id', [siteKey]);
        return rows.map((row) => toRecord<CspProject>(row));
      },
      get: getProject,
      async update(id, changes) {
        if (rowId(id)) {
          await written(
            `UPDATE csp_projects SET name = coalesce($2, name), mode = coalesce($3, mode), base_policy = coalesce($4, base_policy),
               updated_at = $5 WHERE id = $1`,
            [id, changes.name, changes.mode, changes.base_policy, Date.now()],
          );
        }
        return (await getProject(id))!;
      },
      async delete(id) {
        if (rowId(id)) await written('DELETE FROM csp_projects WHERE id = $1', [id]);
      },
    } satisfies CspProjectStore,
    agents: {
      async add(agent) {
        await written(
          `INSERT INTO server_agents (id, token_hash, hostname, os, arch, agent_version, site_key, registered_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [agent.id, agent.token_hash, agent.hostname, agent.os, agent.arch, agent.agent_version, agent.site_key, Date.now()],
          agent.site_key,
        );
        return (await getAgent(agent.id))!;
      },
      get: getAgent,
      async list(siteKey) {
        const { rows } = await run(pool, 'SELECT * FROM server_agents WHERE site_key = $1 ORDER BY registered_at, id COLLATE "C"', [siteKey]);
        return rows.map((row) => toRecord<ServerAgent>(row, WITH_JSON_STATUS));
      },
      async recordHeartbeat(id, { agent_version, status }) {
        await written('UPDATE server_agents SET last_heartbeat_at = $2, status = $3, agent_version = coalesce($4, agent_version) WHERE id = $1', [
          id, Date.now(), status, agent_version,
        ]);
      },
      async revoke(id) {
        return write({ run: async (client) => ((await run(client, 'DELETE FROM server_agents WHERE id = $1', [id])).rowCount ?? 0) > 0 });
      },
    } satisfies ServerAgentStore,
  };
};
