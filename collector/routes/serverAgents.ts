import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { getRouterParam } from 'h3';
import { buildManifest, isArtifactName, keyIdOf, type AgentUpdates } from '../agents/updates';
import { hashApiKey, newAgentCredentials } from '../core/keys';
import { setupUrls, type Links } from '../core/setupUrls';
import { apiError } from '../http/apiError';
import { findSite } from '../http/auth';
import { defineRoute, type Route } from '../http/route';
import { AgentRegisterSchema, HeartbeatSchema } from '../schemas/serverAgent';
import type { Store } from '../store/contract';

/** Agents send a heartbeat this often (seconds). */
export const HEARTBEAT_INTERVAL = 300;

/**
 * The Linux server agents' endpoints (`/api/v1/server-agents/…`, spec section 4): `register` (API
 * key) answers an agent id and token; `{id}/config` and `{id}/heartbeat` take that token;
 * `updates/latest` is the signed manifest of the newest build in the updates folder,
 * `updates/public-key` the key that verifies it; builds download from `/downloads/agents/{file}`
 * on the app host (spec section 1: agents use the app host for API traffic and updates).
 */
export const serverAgentRoutes = ({ store, links, updates }: { store: Store; links: Links; updates?: AgentUpdates | undefined }): Route[] => {
  const urls = (id: string) => {
    const { api_base, app_url } = setupUrls(links);
    return {
      config_url: `${api_base}/v1/server-agents/${id}/config`,
      heartbeat_url: `${api_base}/v1/server-agents/${id}/heartbeat`,
      updates_url: `${app_url}/api/v1/server-agents/updates/latest`,
    };
  };
  const tag = 'Server agents';

  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/server-agents/register',
      tag,
      summary: 'Register a Linux server agent: answers its id and token (shown once)',
      auth: 'apiKey',
      body: { schema: AgentRegisterSchema },
      responses: { 201: 'Registered', 404: 'unknown_site' },
      async handle({ event, apiKey, body }) {
        const siteKey = apiKey!.site_key ?? body.site_key;
        if (body.site_key && apiKey!.site_key && body.site_key != apiKey!.site_key) throw apiError(403, 'forbidden', 'this API key belongs to another site');
        if (siteKey) await findSite(store, siteKey);
        const { id, token } = newAgentCredentials();
        await store.agents.add({ ...body, id, site_key: siteKey, token_hash: hashApiKey(token) });
        event.res.status = 201;
        return { agent_id: id, agent_token: token, heartbeat_interval: HEARTBEAT_INTERVAL, ...urls(id) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/server-agents/:id/config',
      tag,
      summary: "The agent's configuration",
      auth: 'agentToken',
      responses: { 200: 'Config' },
      handle: ({ agent }) => {
        const { api_base, app_url } = setupUrls(links);
        return {
          agent_id: agent!.id,
          site_key: agent!.site_key ?? null,
          app_url,
          api_base,
          heartbeat_interval: HEARTBEAT_INTERVAL,
          updates_enabled: !!updates,
          ...urls(agent!.id),
        };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/server-agents/:id/heartbeat',
      tag,
      summary: 'Heartbeat with status',
      auth: 'agentToken',
      body: { schema: HeartbeatSchema },
      responses: { 200: 'Next heartbeat' },
      async handle({ agent, body }) {
        await store.agents.recordHeartbeat(agent!.id, body);
        return { agent_id: agent!.id, next_heartbeat: HEARTBEAT_INTERVAL };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/server-agents/updates/latest',
      tag,
      // An agent asks with its token, an operator's script with an API key.
      summary: 'The signed manifest (Ed25519) of the newest agent build',
      auth: 'agentTokenOrApiKey',
      responses: { 200: 'Manifest', 404: 'No build published' },
      handle: () => {
        if (!updates) throw apiError(404, 'not_found', 'this collector publishes no agent updates (serve --agent-updates-dir DIR)');
        const manifest = buildManifest({ dir: updates.dir, appUrl: setupUrls(links).app_url, privateKey: updates.privateKey });
        if (!manifest) throw apiError(404, 'not_found', 'no agent build is published yet');
        return manifest;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/server-agents/updates/public-key',
      tag,
      summary: 'The Ed25519 public key that verifies update manifests, and its key id',
      auth: 'none',
      responses: { 200: 'Public key', 404: 'Updates not enabled' },
      handle: () => {
        if (!updates) throw apiError(404, 'not_found', 'this collector publishes no agent updates');
        const publicKey = createPublicKey(updates.privateKey);
        return { algorithm: 'ed25519', key_id: keyIdOf(publicKey), public_key: publicKey.export({ type: 'spki', format: 'pem' }) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/downloads/agents/:file',
      tag,
      summary: 'An agent build, on the app host',
      auth: 'none',
      responses: { 200: { description: 'The build', contentType: 'application/octet-stream' }, 404: 'not_found' },
      handle: ({ event }) => {
        const file = basename(getRouterParam(event, 'file') ?? '');
        // Only the builds the manifest could name: no other file of the folder, no path outside it.
        if (!updates || !isArtifactName(file)) throw apiError(404, 'not_found', 'no such agent build');
        let bytes: Buffer;
        try {
          bytes = readFileSync(join(updates.dir, file));
        } catch {
          throw apiError(404, 'not_found', 'no such agent build');
        }
        event.res.headers.set('content-type', 'application/octet-stream');
        event.res.headers.set('content-disposition', `attachment; filename="${file}"`);
        return new Uint8Array(bytes);
      },
    }),
  ];
};
