import { clientOf } from '../core/clientOf';
import { classifySource, proposedSources, SUGGESTION_LIMITS, type HeldSource, type SourceClass } from '../core/csp';
import type { CspProject } from '../core/records';
import type { CspEvidence, Store } from '../store/contract';

/** One source a project's suggestion would add, with its evidence and the owner's decision (docs/csp-reports.md, "Evidence per source"). */
export interface CspSourceView {
  directive: string;
  source: string;
  reports: number;
  pages: number;
  visitors_share: number;
  first_seen: string | null;
  browsers: string[];
  class: SourceClass;
  decision: 'accepted' | 'rejected' | null;
}

const key = (directive: string, source: string) => `${directive} ${source}`;

/**
 * The sources a CSP project's suggestion would add from the site's top `SUGGESTION_LIMITS.evidenceGroups`
 * violation groups (`evidence`, read once by the caller), each with its evidence: reports, pages,
 * share of the site's visitors, first seen, browsers, its class and the owner's decision. Bounded:
 * one read of the groups' evidence (store/contract/cspSources.ts) and one of the site's visitors.
 *
 * @example
 * const sources = await cspSourcesOf(store, project, await store.csp.evidence(project.site_key, { limit: 1000 }));
 */
export const cspSourcesOf = async (store: Store, project: Pick<CspProject, 'id' | 'site_key' | 'base_policy'>, evidence: readonly CspEvidence[]): Promise<CspSourceView[]> => {
  const proposed = proposedSources(project.base_policy, evidence.slice(0, SUGGESTION_LIMITS.evidenceGroups));
  if (!proposed.length) return [];
  const groups = [...new Map(proposed.flatMap((source) => source.groups).map((group) => [`${group.directive}\n${group.blocked_host}`, group])).values()];
  const [found, siteVisitors, decisions, site] = await Promise.all([
    store.cspSources.evidence(project.site_key, groups),
    store.cspSources.visitors(project.site_key),
    store.cspSources.decisions(project.id),
    store.sites.get(project.site_key),
  ]);
  const byGroup = new Map(found.map((group) => [`${group.directive}\n${group.blocked_host}`, group]));
  const decided = new Map(decisions.map((decision) => [key(decision.directive, decision.source), decision.decision]));
  return proposed.map((source) => {
    const parts = source.groups.map((group) => byGroup.get(`${group.directive}\n${group.blocked_host}`)).filter((group) => group !== undefined);
    const visitors = parts.reduce((sum, group) => sum + group.visitors, 0);
    const visitorsShare = siteVisitors ? Math.min(1, visitors / siteVisitors) : 0;
    const firstSeen = parts.length ? Math.min(...parts.map((group) => group.first_seen)) : undefined;
    const browsers = [...new Set(parts.flatMap((group) => group.user_agents).map((agent) => clientOf(agent).browser))];
    return {
      directive: source.directive,
      source: source.source,
      reports: source.reports,
      pages: parts.reduce((sum, group) => sum + group.pages, 0),
      visitors_share: visitorsShare,
      first_seen: firstSeen === undefined ? null : new Date(firstSeen).toISOString(),
      browsers,
      class: classifySource({ source: source.source, siteOrigins: site?.allowed_origins ?? [], visitors, visitorsShare, siteVisitors }),
      decision: decided.get(key(source.directive, source.source)) ?? null,
    };
  });
};

/**
 * What the suggestion holds out (core/csp suggestPolicy's `held`): sources the owner rejected, and
 * undecided ones that are likely injected. Accepted sources and the rest go in.
 *
 * @example
 * suggestPolicy(base, evidence, SUGGESTION_LIMITS, heldSources(await cspSourcesOf(store, project, evidence)));
 */
export const heldSources = (sources: readonly CspSourceView[]): HeldSource => {
  const held = new Map<string, 'rejected' | 'likely_injected'>();
  for (const source of sources) {
    if (source.decision == 'rejected') held.set(key(source.directive, source.source), 'rejected');
    else if (source.decision === null && source.class == 'likely_injected') held.set(key(source.directive, source.source), 'likely_injected');
  }
  return (directive, source) => held.get(key(directive, source));
};

/**
 * `GET /api/v1/csp-projects/{id}/sources`.
 *
 * @example
 * const { data } = await readCspSources(store, project);
 */
export const readCspSources = async (store: Store, project: Pick<CspProject, 'id' | 'site_key' | 'base_policy'>) => ({
  project_id: project.id,
  data: await cspSourcesOf(store, project, await store.csp.evidence(project.site_key, { limit: SUGGESTION_LIMITS.evidenceGroups })),
});
