// Content Security Policy Level 3 as pure functions (https://w3c.github.io/webappsec-csp/): parse,
// judge and write policies, match URLs, check a page's policies, suggest a policy from reports.
export { checkPagePolicies, type PageRequirement } from './checkPagePolicies';
export { classifySource, INJECTED_MAX_VISITORS, INJECTED_SHARE, MIN_VISITORS_TO_JUDGE, type SourceClass } from './classifySource';
export { directiveFallbackList } from './directiveFallbackList';
export { effectiveDirectiveOf } from './effectiveDirective';
export { governingDirective } from './governingDirective';
export { isKnownDirective, takesSourceList } from './isKnownDirective';
export { isDirectiveName, parsePolicy, parsePolicyList, type Policy } from './parsePolicy';
export { isSourceExpression, parseSourceExpression, type SourceExpression } from './parseSourceExpression';
export { proposedSources, type ProposedSource } from './proposedSources';
export { serializePolicy } from './serializePolicy';
export { sourceForUrl } from './sourceForUrl';
export { sourceForViolation } from './sourceForViolation';
export { suggestPolicy, type Evidence, type HeldSource, type Suggestion, type WithheldReason } from './suggestPolicy';
export { broadSource, GUIDANCE, targetDirective, topSources } from './suggestionRules';
export { SUGGESTION_LIMITS } from './suggestionLimits';
export { schemePartMatches, urlMatchesExpression, urlMatchesSourceList } from './urlMatchesExpression';
export { isWellFormedToken, policyProblems, wellFormedPolicy } from './wellFormedPolicy';
