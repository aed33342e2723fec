import { directiveFallbackList } from './directiveFallbackList';
import { governingDirective } from './governingDirective';
import { parsePolicy, type Policy } from './parsePolicy';
import { serializePolicy } from './serializePolicy';
import { sourceForViolation, type Candidate } from './sourceForViolation';
import { broadSource, GUIDANCE, targetDirective, topSources } from './suggestionRules';
import { SUGGESTION_LIMITS, type SuggestionLimits } from './suggestionLimits';
import { urlMatchesSourceList } from './urlMatchesExpression';
import { wellFormedPolicy } from './wellFormedPolicy';

/** One group of stored violations: how many reports of `directive` blocked `blocked_uri`'s origin. */
export interface Evidence {
  directive: string;
  blocked_uri: string;
  document_uri: string;
  reports: number;
}

/** Why a source is not in the suggestion: too broad (docs/hostile-input.md), or the owner's decision or its evidence (`held`). */
export type WithheldReason = 'unsafe_keyword' | 'unsafe_scheme' | 'rejected' | 'likely_injected';

/** A source the owner rejected, or an undecided one that is likely injected: held out of the suggestion. */
export type HeldSource = (directive: string, source: string) => 'rejected' | 'likely_injected' | undefined;

export interface Suggestion {
  /** The suggested policy as a structure, for callers that build on it (the header); not sent as JSON. */
  structure: Policy;
  policy: string;
  /** What was added to the base, directive by directive, with how many reports needed each source; `collapsed`: sources left out over the cap. */
  directives: Array<{ directive: string; added: Array<{ source: string; reports: number }>; collapsed?: number }>;
  /** Reports the suggestion accounts for: those it allows now, and those the base already allowed. */
  based_on_reports: number;
  /** Sources the reports asked for that a suggestion never adds by itself (the owner decides), with what to do instead of an unsafe keyword. */
  withheld: Array<{ directive: string; source: string; reports: number; reason: WithheldReason; guidance?: string }>;
  /** When a directive needed more sources than the cap: the one with the least coverage, how many sources were kept and the share of its reports they cover. */
  too_many: { directive: string; kept: number; coverage: number } | null;
}

const lower = (tokens: readonly string[]) => tokens.map((token) => token.toLowerCase());
const withoutNone = (tokens: readonly string[]) => tokens.filter((token) => token.toLowerCase() != "'none'");
const text = (value: unknown) => (typeof value == 'string' ? value : '');
const pageOrigin = (documentUri: string) => {
  try {
    return new URL(documentUri);
  } catch {
    return new URL('about:blank');
  }
};

const isAllowed = (list: readonly string[], candidate: Candidate, origin: URL) =>
  candidate.url ? urlMatchesSourceList(candidate.url, list, origin) : lower(list).includes(candidate.source);

/**
 * Builds a Content-Security-Policy that allows what a site's stored violations needed, from its
 * base policy, and never weakens it (docs/csp-reports.md, "The suggested policy"):
 * - each source goes to the directive violated (`targetDirective`: `frame-src` for a frame, never
 *   `default-src`), created from the list that governed it (its fallback's) when the base lacks it;
 *   a kind of fetch the base does not restrict at all gets nothing (a new directive would narrow it);
 * - a source is the page's own origin as `'self'`, or one origin; a bare scheme (`https:`, `data:`),
 *   `*` or an unsafe keyword only where the base had it in the directive's fallback chain, otherwise
 *   it is `withheld`, inline and eval with `guidance` (nonces, hashes, `'strict-dynamic'`);
 * - at most `limits.addedSourcesPerDirective` sources per directive: the top ones by reports, the
 *   rest left out and said (`too_many`, `directives[].collapsed`), never folded into a wildcard;
 * - a source `held` names (rejected by the owner, or undecided and likely injected) is withheld too;
 * - only well-formed source expressions, into a structure serialized once; at most
 *   `limits.evidenceGroups` evidence rows are read. O(n log n) in the evidence rows.
 *
 * @example
 * suggestPolicy("default-src 'self'", [{ directive: 'img-src', blocked_uri: 'https://cdn.example/a.png', document_uri: 'https://shop.example/', reports: 3 }]).policy;
 * // "default-src 'self'; img-src 'self' https://cdn.example"
 */
export const suggestPolicy = (
  basePolicy: string,
  evidence: readonly Evidence[],
  limits: SuggestionLimits = SUGGESTION_LIMITS,
  held: HeldSource = () => undefined,
): Suggestion => {
  const base = wellFormedPolicy(parsePolicy(basePolicy));
  // Directive -> its list before any addition: the base's, or, for a directive created, a copy of
  // the list that governed it.
  const before: Policy = new Map([...base].map(([name, tokens]) => [name, [...tokens]]));
  const added = new Map<string, Map<string, number>>();
  const withheld = new Map<string, Suggestion['withheld'][number]>();
  let basedOn = 0;
  const baseChainHas = (chain: readonly string[], source: string) => chain.some((name) => lower(base.get(name) ?? []).includes(source));

  for (const row of evidence.slice(0, limits.evidenceGroups)) {
    const reports = Number.isSafeInteger(row.reports) && row.reports > 0 ? row.reports : 0;
    const directive = text(row.directive).trim().toLowerCase();
    const chain = directiveFallbackList(directive);
    // Not a fetch directive (frame-ancestors, trusted-types, `constructor`...): no source list to widen.
    if (!reports || !chain.length) continue;
    const candidate = sourceForViolation(directive, text(row.blocked_uri), text(row.document_uri));
    if (!candidate) continue;
    const governing = governingDirective(before, directive);
    // No directive restricts this kind of fetch: the base allows it already (the report came from an
    // older policy), and a new directive would only narrow the policy.
    if (governing === undefined) continue;
    if (isAllowed(before.get(governing)!, candidate, pageOrigin(text(row.document_uri)))) {
      basedOn += reports;
      continue;
    }
    const target = targetDirective(base, directive);
    const broad = broadSource(candidate.source);
    const reason = broad && !baseChainHas(directiveFallbackList(target), candidate.source) ? broad : held(target, candidate.source);
    if (reason) {
      const key = `${target} ${candidate.source}`;
      const guidance = GUIDANCE[candidate.source];
      const entry = withheld.get(key) ?? { directive: target, source: candidate.source, reports: 0, reason, ...(guidance ? { guidance } : {}) };
      entry.reports += reports;
      withheld.set(key, entry);
      continue;
    }
    if (!before.has(target)) before.set(target, withoutNone(before.get(governingDirective(before, target) ?? governing)!));
    const sources = added.get(target) ?? new Map<string, number>();
    sources.set(candidate.source, (sources.get(candidate.source) ?? 0) + reports);
    added.set(target, sources);
    basedOn += reports;
  }

  const structure: Policy = new Map([...before].map(([name, tokens]) => [name, [...tokens]]));
  const directives: Suggestion['directives'] = [];
  let tooMany: Suggestion['too_many'] = null;
  for (const [name, sources] of added) {
    const { kept, coverage, left } = topSources(sources, limits.addedSourcesPerDirective);
    if (left && (!tooMany || coverage < tooMany.coverage)) tooMany = { directive: name, kept: kept.length, coverage };
    const list = withoutNone(structure.get(name)!);
    const present = new Set(lower(list));
    for (const [source] of kept) if (!present.has(source)) list.push(source);
    structure.set(name, list);
    directives.push({ directive: name, added: kept.map(([source, reports]) => ({ source, reports })), ...(left ? { collapsed: left } : {}) });
  }
  return {
    structure,
    policy: serializePolicy(structure),
    directives,
    based_on_reports: basedOn,
    withheld: [...withheld.values()].sort((a, b) => b.reports - a.reports),
    too_many: tooMany,
  };
};
