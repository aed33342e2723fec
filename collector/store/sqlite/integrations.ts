import type { Database } from 'better-sqlite3';
import type { CspProject, ServerAgent, SiteAction, WordPressInstall } from '../../core/records';
import type { ActionStore, CspProjectStore, ServerAgentStore, WordPressStore } from '../contract/integrations';
import type { Write } from './groupCommit';
import { siteCheck } from './siteCheck';
import { insertSql, toRecord, toRow, WITH_JSON_STATUS, type Row } from './rows';

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/**
 * The integrations' records in SQLite: WordPress installs and their actions, CSP projects, server
 * agents. A write that stores a row under a site key rejects with UnknownSiteError when no site has
 * it (any longer), in the group commit's transaction (siteCheck.ts; contract.ts).
 */
export const sqliteIntegrations = (
  db: Database,
  write: Write,
) => {
  const withStatus = <T>(row: Row | undefined) => (row ? toRecord<T>(row, WITH_JSON_STATUS) : undefined);
  const requireSite = siteCheck(db);

  const WORDPRESS_COLUMNS = ['site_key', 'site_url', 'name', 'plugin_version', 'wordpress_version', 'php_version', 'registered_at'];
  const upsertInstall = db.prepare(
    `${insertSql('wordpress_installs', WORDPRESS_COLUMNS)}
     ON CONFLICT (site_key) DO UPDATE SET site_url = excluded.site_url, name = excluded.name,
       plugin_version = excluded.plugin_version, wordpress_version = excluded.wordpress_version, php_version = excluded.php_version`,
  );
  const selectInstall = db.prepare<[string], Row>('SELECT * FROM wordpress_installs WHERE site_key = ?');
  const selectInstallByUrl = db.prepare<[string], Row>('SELECT * FROM wordpress_installs WHERE site_url = ?');
  const updateCheckIn = db.prepare(
    `UPDATE wordpress_installs SET last_check_in_at = @at, status = @status,
       plugin_version = coalesce(@plugin_version, plugin_version), wordpress_version = coalesce(@wordpress_version, wordpress_version),
       php_version = coalesce(@php_version, php_version)
     WHERE site_key = @site_key`,
  );

  const deleteInstall = db.prepare('DELETE FROM wordpress_installs WHERE site_key = ?');
  const deletePending = db.prepare(`DELETE FROM site_actions WHERE site_key = ? AND status = 'pending'`);

  const insertAction = db.prepare(insertSql('site_actions', ['site_key', 'type', 'payload', 'status', 'created_at']));
  const selectAction = db.prepare<[number], Row>('SELECT * FROM site_actions WHERE id = ?');
  const selectPending = db.prepare<[string], Row>(`SELECT * FROM site_actions WHERE site_key = ? AND status = 'pending' ORDER BY id`);
  const updateAction = db.prepare(
    `UPDATE site_actions SET status = @status, message = @message, result = @result, completed_at = @completed_at WHERE id = @id`,
  );
  const getAction = (id: number) => {
    const row = selectAction.get(id);
    return row && toRecord<SiteAction>(row);
  };

  const insertProject = db.prepare(insertSql('csp_projects', ['site_key', 'name', 'mode', 'base_policy', 'created_at', 'updated_at']));
  const selectProject = db.prepare<[number], Row>('SELECT * FROM csp_projects WHERE id = ?');
  const selectProjects = db.prepare<[string | null, string | null], Row>('SELECT * FROM csp_projects WHERE ? IS NULL OR site_key = ? ORDER BY id');
  const updateProject = db.prepare(
    `UPDATE csp_projects SET name = coalesce(@name, name), mode = coalesce(@mode, mode), base_policy = coalesce(@base_policy, base_policy),
       updated_at = @updated_at WHERE id = @id`,
  );
  const deleteProject = db.prepare('DELETE FROM csp_projects WHERE id = ?');
  const getProject = (id: number) => {
    const row = selectProject.get(id);
    return row && toRecord<CspProject>(row);
  };

  const AGENT_COLUMNS = ['id', 'token_hash', 'hostname', 'os', 'arch', 'agent_version', 'site_key', 'registered_at'];
  const insertAgent = db.prepare(insertSql('server_agents', AGENT_COLUMNS));
  const selectAgent = db.prepare<[string], Row>('SELECT * FROM server_agents WHERE id = ?');
  const deleteAgent = db.prepare('DELETE FROM server_agents WHERE id = ?');
  const selectSiteAgents = db.prepare<[string], Row>('SELECT * FROM server_agents WHERE site_key = ? ORDER BY registered_at, id');
  const updateHeartbeat = db.prepare(
    `UPDATE server_agents SET last_heartbeat_at = @at, status = @status, agent_version = coalesce(@agent_version, agent_version) WHERE id = @id`,
  );

  return {
    wordpress: {
      async put(install) {
        await write(() => {
          requireSite(install.site_key);
          return upsertInstall.run(toRow(WORDPRESS_COLUMNS, { ...install, registered_at: Date.now() }));
        });
        return withStatus<WordPressInstall>(selectInstall.get(install.site_key))!;
      },
      async get(siteKey) {
        return withStatus<WordPressInstall>(selectInstall.get(siteKey));
      },
      async findByUrl(siteUrl) {
        return withStatus<WordPressInstall>(selectInstallByUrl.get(siteUrl));
      },
      async recordCheckIn(siteKey, checkIn) {
        await write(() =>
          updateCheckIn.run({
            site_key: siteKey,
            at: Date.now(),
            status: json(checkIn.status),
            plugin_version: checkIn.plugin_version ?? null,
            wordpress_version: checkIn.wordpress_version ?? null,
            php_version: checkIn.php_version ?? null,
          }),
        );
      },
      async revoke(siteKey) {
        return write(() => {
          deletePending.run(siteKey);
          return deleteInstall.run(siteKey).changes > 0;
        });
      },
    } satisfies WordPressStore,
    actions: {
      async add(siteKey, { type, payload }) {
        const result = await write(() => {
          requireSite(siteKey);
          return insertAction.run({ site_key: siteKey, type, payload: json(payload), status: 'pending', created_at: Date.now() });
        });
        return getAction(Number(result.lastInsertRowid))!;
      },
      async pending(siteKey) {
        return selectPending.all(siteKey).map((row) => toRecord<SiteAction>(row));
      },
      async get(id) {
        return getAction(id);
      },
      async complete(id, { status, message, result }) {
        await write(() => updateAction.run({ id, status, message: message ?? null, result: json(result), completed_at: Date.now() }));
      },
    } satisfies ActionStore,
    cspProjects: {
      async create(project) {
        const now = Date.now();
        const result = await write(() => {
          requireSite(project.site_key);
          return insertProject.run({ ...project, created_at: now, updated_at: now });
        });
        return getProject(Number(result.lastInsertRowid))!;
      },
      async list(siteKey?) {
        return selectProjects.all(siteKey ?? null, siteKey ?? null).map((row) => toRecord<CspProject>(row));
      },
      async get(id) {
        return getProject(id);
      },
      async update(id, changes) {
        await write(() =>
          updateProject.run({ id, name: changes.name ?? null, mode: changes.mode ?? null, base_policy: changes.base_policy ?? null, updated_at: Date.now() }),
        );
        return getProject(id)!;
      },
      async delete(id) {
        await write(() => deleteProject.run(id));
      },
    } satisfies CspProjectStore,
    agents: {
      async add(agent) {
        await write(() => {
          requireSite(agent.site_key);
          return insertAgent.run(toRow(AGENT_COLUMNS, { ...agent, registered_at: Date.now() }));
        });
        return withStatus<ServerAgent>(selectAgent.get(agent.id))!;
      },
      async get(id) {
        return withStatus<ServerAgent>(selectAgent.get(id));
      },
      async list(siteKey) {
        return selectSiteAgents.all(siteKey).map((row) => withStatus<ServerAgent>(row)!);
      },
      async recordHeartbeat(id, { agent_version, status }) {
        await write(() => updateHeartbeat.run({ id, at: Date.now(), status: json(status), agent_version: agent_version ?? null }));
      },
      async revoke(id) {
        return write(() => deleteAgent.run(id).changes > 0);
      },
    } satisfies ServerAgentStore,
  };
};
