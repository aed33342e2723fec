import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';
import { revokeAndConfirm } from './revokeAndConfirm';

/** `sitebeacon agent revoke AGENT_ID`: the agent's token is refused (401) from the next request on. */
export const agentRevoke = defineCommand({
  name: ['agent', 'revoke'],
  summary: "the server agent's token is refused from the next request on",
  help: "the server agent's token is refused (401) from the next request on",
  args: [{ name: 'AGENT_ID', help: 'the server agent to revoke' }],
  flags: { ...DATABASE_FLAGS },
  run: ({ values, args: [agentId] }, io) =>
    revokeAndConfirm(values, io, {
      revoke: (store) => store.agents.revoke(agentId!),
      notFound: `no server agent has the id "${agentId}"`,
      json: () => ({ revoked: true, agent_id: agentId }),
      text: () => `Revoked server agent ${agentId}: its token is refused from the next request on.`,
    }),
});
