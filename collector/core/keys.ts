import { hash, randomBytes } from 'node:crypto';

/**
 * Public site keys: 24 hex characters (96 random bits), unguessable so one site cannot write into
 * another, and safe in a URL path and as a command-line argument (never starting with "-").
 *
 * @example
 * newSiteKey() // '3f2a9c1b7e0d4c5a6b7c8d9e'
 */
export const newSiteKey = () => randomBytes(12).toString('hex');

/**
 * A new secret API key: "sbk_" and 32 URL-safe characters (192 random bits). Shown once.
 *
 * @example
 * newApiKey() // 'sbk_…'
 */
export const newApiKey = () => `sbk_${randomBytes(24).toString('base64url')}`;

/**
 * What is stored of a secret (API key, agent token). A key has 192 random bits, so a fast hash is
 * enough: there is nothing to guess a key from, and a slow password hash would only cost every request.
 *
 * @example
 * hashApiKey('sbk_…') // 64 hex characters
 */
export const hashApiKey = (key: string) => hash('sha256', key, 'hex');

/** Agent tokens carry their agent's id, so a request needs no second header: `sba_<id>_<secret>`. */
export const AGENT_TOKEN = /^sba_(agt_[0-9a-f]{16})_([\w-]{43})$/;

/**
 * A new server agent: its id and its token (shown once; only its hash is stored).
 *
 * @example
 * const { id, token } = newAgentCredentials(); // 'agt_…', 'sba_agt_…_…'
 */
export const newAgentCredentials = () => {
  const id = `agt_${randomBytes(8).toString('hex')}`;
  return { id, token: `sba_${id}_${randomBytes(32).toString('base64url')}` };
};
