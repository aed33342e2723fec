import { suggestPolicy, SUGGESTION_LIMITS } from '../core/csp';
import type { CspProject } from '../core/records';
import type { Store } from '../store/contract';
import { cspSourcesOf, heldSources } from './readCspSources';

/**
 * A CSP project's suggested policy (core/csp, `suggestPolicy`) from the site's top
 * `SUGGESTION_LIMITS.evidenceGroups` evidence groups (docs/hostile-input.md, "Bounded reads"): one
 * more is read only to tell whether some were left out. Sources the owner rejected, and undecided
 * ones likely injected, are withheld (docs/csp-reports.md, "Evidence per source"). Its `structure`
 * is for the header; the suggested-policy view leaves it out.
 *
 * @example
 * const { policy, evidence } = await readSuggestion(store, project);
 */
export const readSuggestion = async (store: Store, project: Pick<CspProject, 'id' | 'site_key' | 'base_policy'>) => {
  const limit = SUGGESTION_LIMITS.evidenceGroups;
  const evidence = await store.csp.evidence(project.site_key, { limit: limit + 1 });
  const sources = await cspSourcesOf(store, project, evidence);
  return {
    ...suggestPolicy(project.base_policy, evidence, SUGGESTION_LIMITS, heldSources(sources)),
    evidence: { groups: Math.min(evidence.length, limit), limit, truncated: evidence.length > limit },
  };
};
