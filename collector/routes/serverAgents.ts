import { randomBytes, createPublicKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { getRouterParam, type H3, type H3Event } from 'h3';
import * as v from 'valibot';
import { buildManifest, isArtifactName, keyIdOf } from '../agents/updates';
import { apiError } from '../http/apiError';
import { hashApiKey, requireApiKey } from '../http/apiKeys';
import { methodNotAllowed } from '../http/methodNotAllowed';
import { readRequest } from '../http/readRequest';
import { resolveLinks, type Links } from '../links';
import { optionalBounded } from '../schemas/fields';
import type { ServerAgent, Store } from '../store/store';

/** Agents send a heartbeat this often (seconds). */
export const HEARTBEAT_INTERVAL = 300;

/** Where signed agent builds come from: `serve --agent-updates-dir DIR [--agent-signing-key FILE]`. */
export interface AgentUpdates {
  dir: string;
  privateKey: KeyObject;
}

const text = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));
export const AgentRegisterSchema = v.object({
  hostname: text(253),
  os: text(64),
  arch: text(32),
  agent_version: text(32),
  site_key: v.optional(v.string()),
});
export const HeartbeatSchema = v.object({
  agent_version: optionalBounded(32),
  status: v.optional(v.pipe(v.record(v.string(), v.unknown()), v.check((value) => JSON.stringify(value).length <= 8192, 'at most 8 KiB of JSON'))),
});

/** Agent tokens carry their agent's id, so a request needs no second header: `sba_<id>_<secret>`. */
const TOKEN = /^Bearer\s+sba_(agt_[0-9a-f]{16})_([\w-]{43})\s*$/i;

/**
 * The Linux server agents' endpoints (`/api/v1/server-agents/…`): `register` (API key) answers an
 * agent id and token; `{id}/config` and `{id}/heartbeat` take that token; `updates/latest` is the
 * signed manifest of the newest build in the updates folder, `updates/public-key` the key that
 * verifies it; builds download from `/downloads/agents/{file}` on the app host.
 */
export const serverAgentRoutes = (app: H3, { store, links, updates }: { store: Store; links: Links; updates?: AgentUpdates | undefined }) => {
  const agentFor = async (event: H3Event): Promise<ServerAgent> => {
    const match = TOKEN.exec(event.req.headers.get('authorization') ?? '');
    if (!match) throw apiError(401, 'unauthorized', 'an agent token is required: Authorization: Bearer sba_...', { 'www-authenticate': 'Bearer' });
    const agent = await store.getServerAgent(match[1]!);
    const presented = hashApiKey(`sba_${match[1]}_${match[2]}`);
    if (!agent || !timingSafeEqual(Buffer.from(agent.token_hash), Buffer.from(presented))) {
      throw apiError(401, 'unauthorized', 'the agent token is not valid', { 'www-authenticate': 'Bearer error="invalid_token"' });
    }
    const id = getRouterParam(event, 'id');
    if (id !== undefined && id !== agent.id) throw apiError(403, 'forbidden', 'this token belongs to another agent');
    return agent;
  };
  const urls = (id: string) => {
    const { apiBase, appUrl } = resolveLinks(links);
    return {
      config_url: `${apiBase}/v1/server-agents/${id}/config`,
      heartbeat_url: `${apiBase}/v1/server-agents/${id}/heartbeat`,
      // The agent takes API traffic and signed updates from the app host (spec section 1).
      updates_url: `${appUrl}/api/v1/server-agents/updates/latest`,
    };
  };

  app.post('/api/v1/server-agents/register', async (event) => {
    const key = await requireApiKey(event, store);
    const body = await readRequest(event, AgentRegisterSchema);
    const siteKey = key.siteKey ?? body.site_key;
    if (body.site_key && key.siteKey && body.site_key != key.siteKey) throw apiError(403, 'forbidden', 'this API key belongs to another site');
    if (siteKey && !(await store.getSite(siteKey))) throw apiError(404, 'unknown_site', `no site has the key "${siteKey}"`);
    const id = `agt_${randomBytes(8).toString('hex')}`;
    const token = `sba_${id}_${randomBytes(32).toString('base64url')}`;
    await store.addServerAgent({ ...body, id, site_key: siteKey, token_hash: hashApiKey(token) });
    event.res.status = 201;
    return { agent_id: id, agent_token: token, heartbeat_interval: HEARTBEAT_INTERVAL, ...urls(id) };
  });

  app.get('/api/v1/server-agents/:id/config', async (event) => {
    const agent = await agentFor(event);
    const { apiBase, appUrl } = resolveLinks(links);
    return {
      agent_id: agent.id,
      site_key: agent.site_key ?? null,
      app_url: appUrl,
      api_base: apiBase,
      heartbeat_interval: HEARTBEAT_INTERVAL,
      updates_enabled: !!updates,
      ...urls(agent.id),
    };
  });

  app.post('/api/v1/server-agents/:id/heartbeat', async (event) => {
    const agent = await agentFor(event);
    await store.recordHeartbeat(agent.id, await readRequest(event, HeartbeatSchema));
    return { agent_id: agent.id, next_heartbeat: HEARTBEAT_INTERVAL };
  });

  app.get('/api/v1/server-agents/updates/latest', async (event) => {
    // An agent asks with its token, an operator's script with an API key.
    if (TOKEN.test(event.req.headers.get('authorization') ?? '')) await agentFor(event);
    else await requireApiKey(event, store);
    if (!updates) throw apiError(404, 'not_found', 'this collector publishes no agent updates (serve --agent-updates-dir DIR)');
    const manifest = buildManifest({ dir: updates.dir, appUrl: resolveLinks(links).appUrl, privateKey: updates.privateKey });
    if (!manifest) throw apiError(404, 'not_found', 'no agent build is published yet');
    return manifest;
  });

  app.get('/api/v1/server-agents/updates/public-key', () => {
    if (!updates) throw apiError(404, 'not_found', 'this collector publishes no agent updates');
    const publicKey = createPublicKey(updates.privateKey);
    return { algorithm: 'ed25519', key_id: keyIdOf(publicKey), public_key: publicKey.export({ type: 'spki', format: 'pem' }) };
  });

  app.get('/downloads/agents/:file', (event) => {
    const file = basename(getRouterParam(event, 'file') ?? '');
    // Only the builds the manifest could name: no other file of the folder, no path outside it.
    if (!updates || !isArtifactName(file)) {
      throw apiError(404, 'not_found', 'no such agent build');
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(updates.dir, file));
    } catch {
      throw apiError(404, 'not_found', 'no such agent build');
    }
    event.res.headers.set('content-type', 'application/octet-stream');
    event.res.headers.set('content-disposition', `attachment; filename="${file}"`);
    return new Uint8Array(bytes);
  });

  methodNotAllowed(app, '/api/v1/server-agents/register', ['POST']);
  methodNotAllowed(app, '/api/v1/server-agents/:id/config', ['GET', 'HEAD']);
  methodNotAllowed(app, '/api/v1/server-agents/:id/heartbeat', ['POST']);
  methodNotAllowed(app, '/api/v1/server-agents/updates/latest', ['GET', 'HEAD']);
  methodNotAllowed(app, '/api/v1/server-agents/updates/public-key', ['GET', 'HEAD']);
};
