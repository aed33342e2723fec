import { createPublicKey } from 'node:crypto';
import { getRouterParam, type H3Event } from 'h3';
import { createBuildIndex, type Build } from '../agents/buildIndex';
import { streamBuild } from '../agents/streamBuild';
import { keyIdOf, signManifest, type AgentUpdates } from '../agents/updates';
import { buildArch, newestBuild } from '../core/agentBuilds';
import { hashApiKey, newAgentCredentials } from '../core/keys';
import { setupUrls, type Links } from '../core/setupUrls';
import { apiError } from '../http/apiError';
import { findSite } from '../http/auth';
import { defineRoute, type Route } from '../http/route';
import { AgentRegisterSchema, HeartbeatSchema, UpdatesQuerySchema } from '../schemas/serverAgent';
import type { Store } from '../store/contract';
import { AgentConfigSchema, AgentRegistrationSchema, HeartbeatAnswerSchema, UpdateManifestSchema, UpdatesPublicKeySchema } from '../schemas/answers/serverAgentAnswers';

/** Agents send a heartbeat this often (seconds). */
export const HEARTBEAT_INTERVAL = 300;

/** A download reader that takes nothing for this long is cut off (AgentUpdates.idleTimeoutMs). */
export const DOWNLOAD_IDLE_TIMEOUT_MS = 30_000;

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
  const index = updates && createBuildIndex(updates.dir);

  /** The build a download path names, with its headers set: 404 for any other file of the folder or outside it. */
  const downloadable = async (event: H3Event): Promise<Build> => {
    const build = index && (await index.find(getRouterParam(event, 'file') ?? ''));
    if (!build) throw apiError(404, 'not_found', 'no such agent build');
    const headers = event.res.headers;
    headers.set('content-type', 'application/octet-stream');
    headers.set('content-length', String(build.size));
    headers.set('content-disposition', `attachment; filename="${build.file}"`);
    headers.set('x-content-type-options', 'nosniff');
    return build;
  };
  const download = { 200: { description: 'The build', contentType: 'application/octet-stream' }, 404: 'not_found' };

  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/server-agents/register',
      tag,
      summary: 'Register a Linux server agent: answers its id and token (shown once)',
      auth: 'apiKey',
      body: { schema: AgentRegisterSchema },
      responses: { 201: { description: 'Registered', schema: AgentRegistrationSchema }, 404: 'unknown_site' },
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
      responses: { 200: { description: 'Config', schema: AgentConfigSchema } },
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
      responses: { 200: { description: 'Next heartbeat', schema: HeartbeatAnswerSchema } },
      async handle({ agent, body }) {
        await store.agents.recordHeartbeat(agent!.id, body);
        return { agent_id: agent!.id, next_heartbeat: HEARTBEAT_INTERVAL };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/server-agents/:id',
      tag,
      summary: "Revoke a server agent (an API key of the agent's site, or an installation key): its token is refused from the next request on",
      auth: 'apiKey',
      responses: { 204: 'Revoked', 404: 'unknown_agent' },
      async handle({ event, apiKey }) {
        const id = getRouterParam(event, 'id') ?? '';
        const agent = await store.agents.get(id);
        if (!agent) throw apiError(404, 'unknown_agent', `no server agent has the id "${id}"`);
        // An agent registered with an installation key belongs to no site: only such a key revokes it.
        if (apiKey!.site_key !== undefined && apiKey!.site_key !== agent.site_key) {
          throw apiError(403, 'forbidden', "this API key belongs to another site than the agent's");
        }
        await store.agents.revoke(id);
        event.res.status = 204;
        return null;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/server-agents/updates/latest',
      tag,
      // An agent asks with its token, an operator's script with an API key.
      summary: "The signed manifest (Ed25519) of the newest agent build for one architecture: ?arch=, else the agent's own (x86_64 and aarch64 name amd64 and arm64)",
      auth: 'agentTokenOrApiKey',
      query: UpdatesQuerySchema,
      responses: { 200: { description: 'Manifest', schema: UpdateManifestSchema }, 400: 'invalid_request: no architecture', 404: 'No build published for the architecture' },
      handle: async ({ agent, query }) => {
        if (!updates || !index) throw apiError(404, 'not_found', 'this collector publishes no agent updates (serve --agent-updates-dir DIR)');
        const asked = query.arch ?? agent?.arch;
        if (!asked) throw apiError(400, 'invalid_request', 'name the architecture: ?arch=x86_64 (or amd64, aarch64, arm64, armv7l, i686)');
        const arch = buildArch(asked);
        if (!arch) throw apiError(404, 'not_found', `no agent build is made for the architecture "${asked}"`);
        // Only this architecture's builds: an amd64 file is never offered to an arm64 agent.
        const build = newestBuild(await index.builds(), arch);
        if (!build) throw apiError(404, 'not_found', `no agent build for ${arch} is published yet`);
        return signManifest({ build, sha256: await index.sha256(build), appUrl: setupUrls(links).app_url, privateKey: updates.privateKey });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/server-agents/updates/public-key',
      tag,
      summary: 'The Ed25519 public key that verifies update manifests, and its key id',
      auth: 'none',
      responses: { 200: { description: 'Public key', schema: UpdatesPublicKeySchema }, 404: 'Updates not enabled' },
      handle: () => {
        if (!updates) throw apiError(404, 'not_found', 'this collector publishes no agent updates');
        const publicKey = createPublicKey(updates.privateKey);
        return { algorithm: 'ed25519' as const, key_id: keyIdOf(publicKey), public_key: publicKey.export({ type: 'spki', format: 'pem' }) as string };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/downloads/agents/:file',
      tag,
      summary: 'An agent build, on the app host: streamed, idle readers cut off',
      auth: 'none',
      responses: download,
      handle: async ({ event }) => {
        // The file may change between the look and the open: then look again, once.
        for (let attempt = 0; attempt < 2; attempt++) {
          const body = await streamBuild(await downloadable(event), { idleTimeoutMs: updates?.idleTimeoutMs ?? DOWNLOAD_IDLE_TIMEOUT_MS });
          if (body) return body;
        }
        throw apiError(404, 'not_found', 'the build is being replaced; try again shortly');
      },
    }),
    defineRoute({
      method: 'HEAD',
      path: '/downloads/agents/:file',
      tag,
      summary: "An agent build's headers (size), without reading the build",
      auth: 'none',
      responses: download,
      handle: async ({ event }) => {
        await downloadable(event);
        return null;
      },
    }),
  ];
};
