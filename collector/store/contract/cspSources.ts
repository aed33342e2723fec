/** A violation group's evidence: one effective directive and blocked host (docs/csp-reports.md, "Evidence per source"). */
export interface CspGroupEvidence {
  directive: string;
  blocked_host: string;
  reports: number;
  /** Distinct document URLs. */
  pages: number;
  /** Distinct visitors (docs/visitors.md); reports without a visitor count none. */
  visitors: number;
  /** The first report's time, ms. */
  first_seen: number;
  /** Up to 5 user agents, most reports first. */
  user_agents: string[];
}

/** An owner's decision on a source a suggestion would add. */
export interface CspSourceDecision {
  directive: string;
  source: string;
  decision: 'accepted' | 'rejected';
}

/** The evidence behind each source a CSP project's suggestion would add, and the owner's decisions on them. */
export interface CspSourceStore {
  /**
   * The evidence of each of `groups` (at most 1,000: a bounded read) that has violation reports of
   * the site, in no particular order. A report counts under its effective directive and blocked host
   * as `csp.groups` counts it.
   */
  evidence(siteKey: string, groups: ReadonlyArray<{ directive: string; blocked_host: string }>): Promise<CspGroupEvidence[]>;
  /** Distinct visitors the site's page views and CSP reports came from: what a source's share of visitors is of. */
  visitors(siteKey: string): Promise<number>;
  /** The project's decisions, by directive and source. */
  decisions(projectId: number): Promise<CspSourceDecision[]>;
  /**
   * Records decisions, each replacing the project's earlier one for its directive and source; a null
   * decision removes it. Nothing is stored for a project that does not exist; deleting a project
   * deletes its decisions.
   */
  decide(projectId: number, decisions: ReadonlyArray<{ directive: string; source: string; decision: 'accepted' | 'rejected' | null }>): Promise<void>;
}
