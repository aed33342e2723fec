/**
 * The bounds of one policy suggestion (docs/hostile-input.md, "Bounded reads"). Reports are unauthenticated: anyone can
 * store tens of thousands of distinct blocked hosts, so neither the evidence read nor the policy
 * written may grow with them.
 */
export const SUGGESTION_LIMITS = {
  /**
   * Evidence groups read per suggestion: the top N (directive, scheme, host) groups by report
   * count. What a real page needs is reported often; a long tail of hosts seen once is noise or
   * forgery, and would not fit in a header anyway.
   */
  evidenceGroups: 1000,
  /**
   * Sources one directive may gain over the base policy. Beyond it, hosts of one parent domain
   * collapse into a wildcard host (`https://*.example.com`), and if that is not enough, every host
   * source collapses into its scheme (`https:`). 24 origins of ~40 characters keep a directive
   * near 1 KB, so the header stays deployable behind proxies with 8 KB header limits.
   */
  addedSourcesPerDirective: 24,
} as const;

export type SuggestionLimits = { evidenceGroups: number; addedSourcesPerDirective: number };
