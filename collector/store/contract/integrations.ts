import type { CspProject, ServerAgent, SiteAction, WordPressInstall } from '../../core/records';

export interface WordPressStore {
  /** Registers an install, or updates the one of the same site (idempotent). */
  put(install: Omit<WordPressInstall, 'registered_at' | 'last_check_in_at' | 'status'>): Promise<WordPressInstall>;
  get(siteKey: string): Promise<WordPressInstall | undefined>;
  findByUrl(siteUrl: string): Promise<WordPressInstall | undefined>;
  recordCheckIn(
    siteKey: string,
    checkIn: Pick<WordPressInstall, 'plugin_version' | 'wordpress_version' | 'php_version' | 'status'>,
  ): Promise<void>;
  /** Removes the site's install and its pending actions (`wordpress revoke`). False when it had none. */
  revoke(siteKey: string): Promise<boolean>;
}

export interface ActionStore {
  add(siteKey: string, action: { type: string; payload?: Record<string, unknown> | undefined }): Promise<SiteAction>;
  /** The site's actions not completed yet, oldest first. */
  pending(siteKey: string): Promise<SiteAction[]>;
  get(id: number): Promise<SiteAction | undefined>;
  complete(
    id: number,
    outcome: { status: 'succeeded' | 'failed'; message?: string | undefined; result?: Record<string, unknown> | undefined },
  ): Promise<void>;
}

export interface CspProjectStore {
  create(project: Pick<CspProject, 'site_key' | 'name' | 'mode' | 'base_policy'>): Promise<CspProject>;
  /** A site's projects, or every project. */
  list(siteKey?: string): Promise<CspProject[]>;
  get(id: number): Promise<CspProject | undefined>;
  update(id: number, changes: Partial<Pick<CspProject, 'name' | 'mode' | 'base_policy'>>): Promise<CspProject>;
  delete(id: number): Promise<void>;
}

export interface ServerAgentStore {
  add(agent: Omit<ServerAgent, 'registered_at' | 'last_heartbeat_at' | 'status'>): Promise<ServerAgent>;
  get(id: string): Promise<ServerAgent | undefined>;
  /** The agents registered for a site, oldest first. */
  list(siteKey: string): Promise<ServerAgent[]>;
  recordHeartbeat(id: string, heartbeat: { agent_version?: string | undefined; status?: Record<string, unknown> | undefined }): Promise<void>;
  /** Removes the agent (`agent revoke`, `DELETE /api/v1/server-agents/{id}`): its token is refused. False when unknown. */
  revoke(id: string): Promise<boolean>;
}
