import * as v from 'valibot';
import { CountSchema } from './isoTime';

const agentUrls = { config_url: v.string(), heartbeat_url: v.string(), updates_url: v.string() };

/** `POST /api/v1/server-agents/register`: the agent's id and token (shown once) and its URLs. */
export const AgentRegistrationSchema = v.object({ agent_id: v.string(), agent_token: v.string(), heartbeat_interval: CountSchema, ...agentUrls });

/** `GET /api/v1/server-agents/{id}/config`. */
export const AgentConfigSchema = v.object({
  agent_id: v.string(),
  site_key: v.nullable(v.string()),
  app_url: v.string(),
  api_base: v.string(),
  heartbeat_interval: CountSchema,
  updates_enabled: v.boolean(),
  ...agentUrls,
});

/** `POST /api/v1/server-agents/{id}/heartbeat`: seconds until the next one. */
export const HeartbeatAnswerSchema = v.object({ agent_id: v.string(), next_heartbeat: CountSchema });

/** `GET /api/v1/server-agents/updates/latest`: a build's manifest, signed with Ed25519 (agents/updates.ts). */
export const UpdateManifestSchema = v.object({
  version: v.string(),
  arch: v.string(),
  file: v.string(),
  url: v.string(),
  size: CountSchema,
  sha256: v.string(),
  algorithm: v.literal('ed25519'),
  key_id: v.string(),
  signature: v.string(),
});

/** `GET /api/v1/server-agents/updates/public-key`: the key that verifies manifests, as PEM (SPKI). */
export const UpdatesPublicKeySchema = v.object({ algorithm: v.literal('ed25519'), key_id: v.string(), public_key: v.string() });
