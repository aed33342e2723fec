import type { Store } from '../store/contract';
import { databaseLocation, withStore, type CliIO } from './args';

/**
 * What a command that takes access away (`key revoke`, `agent revoke`, `wordpress revoke`,
 * `user remove`, `user sign-out`) does once it knows what: the one change in the store, an error
 * naming what was not found when nothing matched (exit 1), and the confirmation: `json` with
 * `--json`, else `text`. `revoke` answers false or undefined when nothing matched; anything else
 * (a count of 0 sessions too) is what was revoked, handed to `json` and `text`.
 *
 * @example
 * await revokeAndConfirm(values, io, {
 *   revoke: (store) => store.agents.revoke(agentId),
 *   notFound: `no server agent has the id "${agentId}"`,
 *   json: () => ({ revoked: true, agent_id: agentId }),
 *   text: () => `Revoked server agent ${agentId}: its token is refused from the next request on.`,
 * });
 */
export const revokeAndConfirm = async <T>(
  values: Parameters<typeof databaseLocation>[0] & { json: boolean },
  io: CliIO,
  action: {
    revoke: (store: Store) => Promise<T | false | undefined>;
    notFound: string;
    json: (revoked: T) => object;
    text: (revoked: T) => string;
  },
) => {
  const revoked = await withStore(databaseLocation(values, io), action.revoke);
  if (revoked === false || revoked === undefined) throw new Error(action.notFound);
  io.out(values.json ? JSON.stringify(action.json(revoked)) : action.text(revoked));
};
