/** What adding a route pattern did: added last; already one of the site's; refused, the site having as many as it may. */
export type RoutePatternAdded = 'added' | 'exists' | 'full';

/**
 * A site's route patterns (docs/vitals.md, "Routes"): what `sitebeacon site routes` manages and
 * each performance session's route is matched against (core/routes.ts). Patterns reach the store
 * checked (core/routes.ts parseRoutePattern); the store keeps their order and bounds their number.
 */
export interface RoutePatternStore {
  /** The site's patterns in the order they were added, which is the order they are matched in; [] for a site without (or no site). */
  list(siteKey: string): Promise<string[]>;
  /**
   * Adds `pattern` last, unless the site has it already or has `max` patterns (in one transaction:
   * two processes adding at once never pass `max`). Rejects with UnknownSiteError when no site has `siteKey`.
   */
  add(siteKey: string, pattern: string, max: number): Promise<RoutePatternAdded>;
  /** Removes the pattern; false when the site has no such pattern. */
  remove(siteKey: string, pattern: string): Promise<boolean>;
}
