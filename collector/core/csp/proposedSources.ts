import { blockedHostOf } from '../blockedHost';
import { directiveFallbackList } from './directiveFallbackList';
import { governingDirective } from './governingDirective';
import { parsePolicy } from './parsePolicy';
import { sourceForViolation } from './sourceForViolation';
import type { Evidence } from './suggestPolicy';
import { broadSource, targetDirective } from './suggestionRules';
import { urlMatchesSourceList } from './urlMatchesExpression';
import { wellFormedPolicy } from './wellFormedPolicy';

/** A source a suggestion would add, the violation groups that asked for it and their reports. */
export interface ProposedSource {
  directive: string;
  source: string;
  reports: number;
  /** The stored groups (effective directive and blocked host, as `csp.groups` counts them) behind it. */
  groups: Array<{ directive: string; blocked_host: string }>;
}

const pageUrl = (text: string) => {
  try {
    return new URL(text);
  } catch {
    return new URL('about:blank');
  }
};

/**
 * Every source the stored violations would add to `basePolicy`, in the directive it would go to, as
 * suggestPolicy places it (docs/csp-reports.md, "Evidence per source"): not one the base already
 * allows, nor a bare scheme, `*` or unsafe keyword (those are withheld, never proposed). Most
 * reports first, then by directive and source. O(n log n) in the evidence rows.
 *
 * @example
 * proposedSources("default-src 'self'", [{ directive: 'frame-src', blocked_uri: 'https://player.example/e/1', document_uri: 'https://shop.example/', reports: 2 }]);
 * // [{ directive: 'frame-src', source: 'https://player.example', reports: 2, groups: [{ directive: 'frame-src', blocked_host: 'player.example' }] }]
 */
export const proposedSources = (basePolicy: string, evidence: readonly Evidence[]): ProposedSource[] => {
  const base = wellFormedPolicy(parsePolicy(basePolicy));
  const proposed = new Map<string, ProposedSource>();
  for (const row of evidence) {
    const reports = Number.isSafeInteger(row.reports) && row.reports > 0 ? row.reports : 0;
    const directive = typeof row.directive == 'string' ? row.directive.trim().toLowerCase() : '';
    const blocked = typeof row.blocked_uri == 'string' ? row.blocked_uri : '';
    const page = typeof row.document_uri == 'string' ? row.document_uri : '';
    if (!reports || !directiveFallbackList(directive).length) continue;
    const candidate = sourceForViolation(directive, blocked, page);
    const governing = governingDirective(base, directive);
    if (!candidate || governing === undefined || broadSource(candidate.source)) continue;
    const list = base.get(governing)!;
    const allowed = candidate.url ? urlMatchesSourceList(candidate.url, list, pageUrl(page)) : list.map((token) => token.toLowerCase()).includes(candidate.source);
    if (allowed) continue;
    const target = targetDirective(base, directive);
    const key = `${target} ${candidate.source}`;
    const entry = proposed.get(key) ?? { directive: target, source: candidate.source, reports: 0, groups: [] };
    entry.reports += reports;
    entry.groups.push({ directive, blocked_host: blockedHostOf(blocked) });
    proposed.set(key, entry);
  }
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...proposed.values()].sort((a, b) => b.reports - a.reports || text(a.directive, b.directive) || text(a.source, b.source));
};
