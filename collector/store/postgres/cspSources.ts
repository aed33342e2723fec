import type { CspGroupEvidence, CspSourceStore } from '../contract/cspSources';
import type { Write } from './groupCommit';
import type { Pool } from './pool';
import { param, run } from './rows';

// $1 site, $2 and $3 the wanted groups' directives and blocked hosts; each found through
// csp_reports_by_directive, never a pass over the site's other reports.
const JOIN = `FROM unnest($2::text[], $3::text[]) AS wanted (directive, host)
  JOIN csp_reports AS r ON r.site_key = $1 AND r.effective_directive = wanted.directive
    AND r.blocked_host = wanted.host AND r.report_type = 'csp-violation'`;
const COUNTS = `SELECT wanted.directive, wanted.host AS blocked_host, COUNT(*) AS reports, COUNT(DISTINCT r.document_uri) AS pages,
    COUNT(DISTINCT r.visitor) AS visitors, MIN(r.received_at) AS first_seen
  ${JOIN} GROUP BY wanted.directive, wanted.host`;
const AGENTS = `SELECT wanted.directive, wanted.host, r.user_agent, COUNT(*) AS reports
  ${JOIN} AND r.user_agent IS NOT NULL GROUP BY wanted.directive, wanted.host, r.user_agent ORDER BY reports DESC, r.user_agent COLLATE "C"`;
const VISITORS = `SELECT COUNT(*) AS visitors FROM (SELECT visitor FROM performance_sessions WHERE site_key = $1 AND visitor IS NOT NULL
  UNION SELECT visitor FROM csp_reports WHERE site_key = $1 AND visitor IS NOT NULL) AS seen`;
const UPSERT = `INSERT INTO csp_source_decisions (project_id, directive, source, decision, decided_at)
    SELECT id, $2, $3, $4, $5 FROM csp_projects WHERE id = $1
  ON CONFLICT (project_id, directive, source) DO UPDATE SET decision = excluded.decision, decided_at = excluded.decided_at`;

/** Ids of rows are int8: a number beyond what JavaScript counts exactly names no row. */
const rowId = (id: number) => Number.isSafeInteger(id) && id > 0;

/**
 * CSP sources' evidence and an owner's decisions in PostgreSQL, as sqlite/cspSources.ts: reads on
 * the pool, decisions through the group commit.
 *
 * @example
 * const sources = postgresCspSources(pool, write);
 * await sources.decisions(projectId);
 */
export const postgresCspSources = (pool: Pool, write: Write): CspSourceStore => ({
  async evidence(siteKey, groups) {
    const wanted = groups.slice(0, 1000);
    // Arrays as arrays (run() would send them as JSON); the texts as stored (storedText: no NUL).
    const values = [param(siteKey), wanted.map((group) => param(group.directive)), wanted.map((group) => param(group.blocked_host))];
    const { rows } = await pool.query<Omit<CspGroupEvidence, 'user_agents'>>(COUNTS, values);
    const found = new Map(rows.map((row) => [`${row.directive}\n${row.blocked_host}`, { ...row, user_agents: [] as string[] }]));
    for (const row of (await pool.query<{ directive: string; host: string; user_agent: string }>(AGENTS, values)).rows) {
      const group = found.get(`${row.directive}\n${row.host}`);
      if (group && group.user_agents.length < 5) group.user_agents.push(row.user_agent);
    }
    return [...found.values()];
  },
  async visitors(siteKey) {
    return Number((await run<{ visitors: number }>(pool, VISITORS, [siteKey])).rows[0]?.visitors ?? 0);
  },
  async decisions(projectId) {
    if (!rowId(projectId)) return [];
    const { rows } = await run<{ directive: string; source: string; decision: 'accepted' | 'rejected' }>(
      pool,
      'SELECT directive, source, decision FROM csp_source_decisions WHERE project_id = $1 ORDER BY directive COLLATE "C", source COLLATE "C"',
      [projectId],
    );
    return rows;
  },
  async decide(projectId, decisions) {
    if (!rowId(projectId)) return;
    const now = Date.now();
    await write({
      run: async (client) => {
        for (const { directive, source, decision } of decisions) {
          if (decision === null) await run(client, 'DELETE FROM csp_source_decisions WHERE project_id = $1 AND directive = $2 AND source = $3', [projectId, directive, source]);
          else await run(client, UPSERT, [projectId, directive, source, decision, now]);
        }
      },
    });
  },
});
