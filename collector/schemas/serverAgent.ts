import * as v from 'valibot';
import { NO_CONTROL_CHARACTERS, optionalSingleLine } from './fields';
import { smallObject } from './wordpress';

/** One line: no control characters (docs/hostile-input.md, "Text and protocol edges"). */
const text = (max: number) =>
  v.pipe(v.string(), v.minLength(1), v.maxLength(max), v.regex(NO_CONTROL_CHARACTERS, 'control characters are not allowed here'));

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
  agent_version: optionalSingleLine(32),
  status: smallObject,
});

/** `GET /api/v1/server-agents/updates/latest?arch=`: an architecture name as agents give it (`x86_64`, `aarch64`, `amd64`...). */
export const UpdatesQuerySchema = v.object({ arch: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(32))) });
