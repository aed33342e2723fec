import { directiveFallbackList } from './directiveFallbackList';
import type { Policy } from './parsePolicy';

/**
 * The directive of `policy` that governs a fetch whose effective directive is `effectiveDirective`:
 * the first of its fallback list the policy has (CSP3 "Should fetch directive execute", #should-directive-execute).
 * Undefined when none does: the policy does not restrict that kind of fetch.
 *
 * @example
 * governingDirective(parsePolicy("default-src 'self'; script-src 'self'"), 'script-src-elem'); // 'script-src'
 * governingDirective(parsePolicy("img-src 'self'"), 'connect-src');                            // undefined
 */
export const governingDirective = (policy: Policy, effectiveDirective: string): string | undefined =>
  directiveFallbackList(effectiveDirective).find((name) => policy.has(name));
