import { collapseSources } from './collapseSources';
import { directiveFallbackList } from './directiveFallbackList';
import { governingDirective } from './governingDirective';
import { parsePolicy, type Policy } from './parsePolicy';
import { serializePolicy } from './serializePolicy';
import { sourceForViolation, type Candidate } from './sourceForViolation';
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

export interface Suggestion {
  /** The suggested policy as a structure, for callers that build on it (the header); not sent as JSON. */
  structure: Policy;
  policy: string;
  /** What was added to the base, directive by directive, with how many reports needed each source. */
  directives: Array<{ directive: string; added: Array<{ source: string; reports: number }>; collapsed?: number }>;
  /** Reports the suggestion accounts for: those it allows now, and those the base already allowed. */
  based_on_reports: number;
  /** Sources the reports asked for that a suggestion never adds by itself (the owner decides). */
  withheld: Array<{ directive: string; source: string; reports: number; reason: 'unsafe_keyword' | 'unsafe_scheme' }>;
}

/** Keywords that switch protections off (docs/hostile-input.md, "Policies widened by reports"): added only where the base policy had them. */
const UNSAFE_KEYWORDS: ReadonlySet<string> = /* @__PURE__ */ new Set(["'unsafe-inline'", "'unsafe-eval'", "'wasm-unsafe-eval'", "'unsafe-hashes'"]);
/** Scheme sources that let a page run script it did not ship, when they govern scripts or workers. */
const SCRIPT_SCHEMES: ReadonlySet<string> = /* @__PURE__ */ new Set(['data:', 'blob:', 'filesystem:']);
/** The effective directives of script execution: whatever governs one of them governs scripts. */
const SCRIPT_FETCHES = ['script-src-elem', 'script-src-attr', 'worker-src'];
/** Every directive that may govern script execution (their fallback lists). */
const SCRIPT_GOVERNORS: ReadonlySet<string> = /* @__PURE__ */ new Set(SCRIPT_FETCHES.flatMap((name) => directiveFallbackList(name)));

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
 * base policy. Each source goes to the directive that governed the blocked fetch (CSP3 "Get fetch
 * directive fallback list": `script-src-elem` -> `script-src` -> `default-src`), as `'self'` for the
 * page's own origin, an origin, or a keyword. Reports are unauthenticated, so (docs/hostile-input.md, "Policies widened by reports"):
 * - only well-formed source expressions are written, into directives of the base or of the known
 *   fetch directives, and the policy is built as a structure and serialized once;
 * - a keyword only where it fits the directive (`inline` for script and style, `eval` for script-src);
 * - `'unsafe-inline'`, `'unsafe-eval'`, `'wasm-unsafe-eval'`, `'unsafe-hashes'` only when the base
 *   policy had it in that directive's fallback chain, and `data:`, `blob:`, `filesystem:` for a
 *   directive that may govern scripts or workers likewise; otherwise they are listed in `withheld`
 *   for the owner to decide;
 * - a `data:`/`blob:`/`filesystem:` source for another kind (an image) never widens a directive that
 *   also governs scripts: that kind gets its own directive, a copy of the governing one plus the source;
 * - at most `limits.addedSourcesPerDirective` added sources per directive (`collapseSources`);
 * - at most `limits.evidenceGroups` evidence rows are read (callers pass the top ones by count).
 * O(n log n) in the evidence rows; a directive named `constructor` is just an unknown name.
 *
 * @example
 * suggestPolicy("default-src 'self'", [{ directive: 'img-src', blocked_uri: 'https://cdn.example/a.png', document_uri: 'https://shop.example/', reports: 3 }]).policy;
 * // "default-src 'self' https://cdn.example"
 */
export const suggestPolicy = (basePolicy: string, evidence: readonly Evidence[], limits: SuggestionLimits = SUGGESTION_LIMITS): Suggestion => {
  const base = wellFormedPolicy(parsePolicy(basePolicy));
  // Directive -> its list before any addition: the base's, or, for a split-off directive, a copy of
  // the list that governed it.
  const before: Policy = new Map([...base].map(([name, tokens]) => [name, [...tokens]]));
  const added = new Map<string, Map<string, number>>();
  const withheld = new Map<string, Suggestion['withheld'][number]>();
  let basedOn = 0;
  const add = (directive: string, source: string, reports: number) => {
    const sources = added.get(directive) ?? new Map<string, number>();
    sources.set(source, (sources.get(source) ?? 0) + reports);
    added.set(directive, sources);
  };
  const baseChainHas = (chain: readonly string[], source: string) => chain.some((name) => lower(base.get(name) ?? []).includes(source));

  for (const row of evidence.slice(0, limits.evidenceGroups)) {
    const reports = Number.isSafeInteger(row.reports) && row.reports > 0 ? row.reports : 0;
    const directive = text(row.directive).trim().toLowerCase();
    const chain = directiveFallbackList(directive);
    // Not a fetch directive (frame-ancestors, trusted-types, `constructor`...): no source list to widen.
    if (!reports || !chain.length) continue;
    const candidate = sourceForViolation(directive, text(row.blocked_uri), text(row.document_uri));
    if (!candidate) continue;
    let target = governingDirective(before, directive);
    // No directive restricts this kind of fetch: the base allows it already (the report came from an
    // older policy), and a new directive would only narrow the policy.
    if (target === undefined) continue;
    if (isAllowed(before.get(target)!, candidate, pageOrigin(text(row.document_uri)))) {
      basedOn += reports;
      continue;
    }
    const scriptScheme = SCRIPT_SCHEMES.has(candidate.source);
    const unsafe = UNSAFE_KEYWORDS.has(candidate.source) || (scriptScheme && SCRIPT_GOVERNORS.has(directive));
    if (unsafe && !baseChainHas(chain, candidate.source)) {
      const key = `${directive} ${candidate.source}`;
      const entry = withheld.get(key) ?? {
        directive,
        source: candidate.source,
        reports: 0,
        reason: UNSAFE_KEYWORDS.has(candidate.source) ? ('unsafe_keyword' as const) : ('unsafe_scheme' as const),
      };
      entry.reports += reports;
      withheld.set(key, entry);
      continue;
    }
    // data: for images where default-src also governs scripts: images get their own directive.
    if (scriptScheme && !SCRIPT_GOVERNORS.has(directive) && SCRIPT_FETCHES.some((fetch) => governingDirective(before, fetch) == target)) {
      before.set(directive, withoutNone(before.get(target)!));
      added.set(directive, new Map(added.get(target)));
      target = directive;
    }
    add(target, candidate.source, reports);
    basedOn += reports;
  }

  const structure: Policy = new Map([...before].map(([name, tokens]) => [name, [...tokens]]));
  const directives: Suggestion['directives'] = [];
  for (const [name, sources] of added) {
    const { sources: kept, collapsed } = collapseSources(sources, limits.addedSourcesPerDirective);
    const entries = [...kept].sort((a, b) => b[1] - a[1]);
    const list = withoutNone(structure.get(name)!);
    const present = new Set(lower(list));
    for (const [source] of entries) if (!present.has(source)) list.push(source);
    structure.set(name, list);
    directives.push({ directive: name, added: entries.map(([source, reports]) => ({ source, reports })), ...(collapsed ? { collapsed } : {}) });
  }
  return {
    structure,
    policy: serializePolicy(structure),
    directives,
    based_on_reports: basedOn,
    withheld: [...withheld.values()].sort((a, b) => b.reports - a.reports),
  };
};
