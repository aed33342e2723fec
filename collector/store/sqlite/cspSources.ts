import type { Database } from 'better-sqlite3';
import type { CspGroupEvidence, CspSourceStore } from '../contract/cspSources';
import type { Write } from './groupCommit';

type Counts = Omit<CspGroupEvidence, 'user_agents'>;

// The wanted groups as a JSON array of [directive, blocked host] pairs; each found through
// csp_reports_by_directive, never a pass over the site's other reports.
const WANTED = `wanted AS (SELECT json_extract(value, '$[0]') AS directive, json_extract(value, '$[1]') AS host FROM json_each(@groups))`;
// CROSS JOIN: the wanted groups outside, each an index range (SQLite's planner would scan the reports otherwise).
const JOIN = `FROM wanted CROSS JOIN csp_reports AS r ON r.site_key = @site AND r.effective_directive = wanted.directive
  AND r.blocked_host = wanted.host AND r.report_type = 'csp-violation'`;

/**
 * CSP sources' evidence and an owner's decisions in SQLite (store/contract/cspSources.ts). Reads on
 * this connection; decisions through the group commit.
 *
 * @example
 * const sources = sqliteCspSources(db, write);
 * await sources.decide(projectId, [{ directive: 'img-src', source: 'https://cdn.example', decision: 'accepted' }]);
 */
export const sqliteCspSources = (db: Database, write: Write): CspSourceStore => {
  const counts = db.prepare<{ site: string; groups: string }, Counts>(
    `WITH ${WANTED}
     SELECT wanted.directive, wanted.host AS blocked_host, COUNT(*) AS reports, COUNT(DISTINCT r.document_uri) AS pages,
       COUNT(DISTINCT r.visitor) AS visitors, MIN(r.received_at) AS first_seen
     ${JOIN} GROUP BY wanted.directive, wanted.host`,
  );
  const agents = db.prepare<{ site: string; groups: string }, { directive: string; host: string; user_agent: string; reports: number }>(
    `WITH ${WANTED}
     SELECT wanted.directive, wanted.host, r.user_agent, COUNT(*) AS reports
     ${JOIN} AND r.user_agent IS NOT NULL GROUP BY wanted.directive, wanted.host, r.user_agent ORDER BY reports DESC, r.user_agent`,
  );
  const visitors = db
    .prepare<[string, string], number>(
      `SELECT COUNT(*) FROM (SELECT visitor FROM performance_sessions WHERE site_key = ? AND visitor IS NOT NULL
         UNION SELECT visitor FROM csp_reports WHERE site_key = ? AND visitor IS NOT NULL)`,
    )
    .pluck();
  const selectDecisions = db.prepare<[number], { directive: string; source: string; decision: 'accepted' | 'rejected' }>(
    'SELECT directive, source, decision FROM csp_source_decisions WHERE project_id = ? ORDER BY directive, source',
  );
  const upsert = db.prepare(
    `INSERT INTO csp_source_decisions (project_id, directive, source, decision, decided_at)
       SELECT @project, @directive, @source, @decision, @now WHERE EXISTS (SELECT 1 FROM csp_projects WHERE id = @project)
     ON CONFLICT (project_id, directive, source) DO UPDATE SET decision = excluded.decision, decided_at = excluded.decided_at`,
  );
  const remove = db.prepare('DELETE FROM csp_source_decisions WHERE project_id = @project AND directive = @directive AND source = @source');
  return {
    async evidence(siteKey, groups) {
      const params = { site: siteKey, groups: JSON.stringify(groups.slice(0, 1000).map((group) => [group.directive, group.blocked_host])) };
      const found = new Map(counts.all(params).map((row) => [`${row.directive}\n${row.blocked_host}`, { ...row, user_agents: [] as string[] }]));
      for (const row of agents.all(params)) {
        const group = found.get(`${row.directive}\n${row.host}`);
        if (group && group.user_agents.length < 5) group.user_agents.push(row.user_agent);
      }
      return [...found.values()];
    },
    async visitors(siteKey) {
      return visitors.get(siteKey, siteKey) ?? 0;
    },
    async decisions(projectId) {
      return selectDecisions.all(projectId);
    },
    async decide(projectId, decisions) {
      const now = Date.now();
      await write(() => {
        for (const { directive, source, decision } of decisions) {
          if (decision === null) remove.run({ project: projectId, directive, source });
          else upsert.run({ project: projectId, directive, source, decision, now });
        }
      });
    },
  };
};
