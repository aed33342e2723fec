import { suggestPolicy, SUGGESTION_LIMITS } from '../core/csp';
import type { CspProject } from '../core/records';
import type { Store } from '../store/contract';

/**
 * A CSP project's suggested policy (core/csp, `suggestPolicy`) from the site's top
 * `SUGGESTION_LIMITS.evidenceGroups` evidence groups (docs/hostile-input.md, "Bounded reads"): one
 * more is read only to tell whether some were left out. Its `structure` is for the header; the
 * suggested-policy view leaves it out.
 *
 * @example
 * const { policy, evidence } = await readSuggestion(store, project);
 */
export const readSuggestion = async (store: Store, project: Pick<CspProject, 'site_key' | 'base_policy'>) => {
  const limit = SUGGESTION_LIMITS.evidenceGroups;
  const evidence = await store.csp.evidence(project.site_key, { limit: limit + 1 });
  return {
    ...suggestPolicy(project.base_policy, evidence),
    evidence: { groups: Math.min(evidence.length, limit), limit, truncated: evidence.length > limit },
  };
};
