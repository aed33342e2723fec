import * as v from 'valibot';
import { optionalBounded } from './fields';
import { smallObject } from './wordpress';

const text = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));

/** `POST /api/v1/server-agents/register`. */
export const AgentRegisterSchema = v.object({
  hostname: text(253),
  os: text(64),
  arch: text(32),
  agent_version: text(32),
  site_key: v.optional(v.string()),
});

/** `POST /api/v1/server-agents/{id}/heartbeat`. */
export const HeartbeatSchema = v.object({
  agent_version: optionalBounded(32),
  status: smallObject,
});
