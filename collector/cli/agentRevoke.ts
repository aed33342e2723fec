import { databaseLocation, withStore } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';

/** `sitebeacon agent revoke AGENT_ID`: the agent's token is refused (401) from the next request on. */
export const agentRevoke = defineCommand({
  name: ['agent', 'revoke'],
  summary: "the server agent's token is refused from the next request on",
  help: "the server agent's token is refused (401) from the next request on",
  args: [{ name: 'AGENT_ID', help: 'the server agent to revoke' }],
  flags: { ...DATABASE_FLAGS },
  run: async ({ values, args: [agentId] }, io) => {
    const revoked = await withStore(databaseLocation(values, io), (store) => store.agents.revoke(agentId!));
    if (!revoked) throw new Error(`no server agent has the id "${agentId}"`);
    io.out(values.json ? JSON.stringify({ revoked: true, agent_id: agentId }) : `Revoked server agent ${agentId}: its token is refused from the next request on.`);
  },
});
