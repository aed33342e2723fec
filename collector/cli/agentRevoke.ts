import { databaseLocation, parseWithArgument, withStore, type CliIO } from './args';

/** `sitebeacon agent revoke AGENT_ID`: the agent's token is refused (401) from the next request on. */
export const agentRevoke = async (args: string[], io: CliIO) => {
  const { values, argument: agentId } = parseWithArgument(args, {}, 'AGENT_ID');
  const revoked = await withStore(databaseLocation(values, io), (store) => store.agents.revoke(agentId));
  if (!revoked) throw new Error(`no server agent has the id "${agentId}"`);
  io.out(values.json ? JSON.stringify({ revoked: true, agent_id: agentId }) : `Revoked server agent ${agentId}: its token is refused from the next request on.`);
};
