// The suggested policy never weakens its base (docs/csp-reports.md, "The suggested policy"): for
// any set of stored reports it parses as a valid policy, allows nothing new but the sources it
// lists (each an origin or 'self', in the directive violated), and holds no bare scheme, `*` or
// unsafe keyword the base lacked. Fixed seed, like the fuzz suite.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { basePolicy, expectWellFormedSuggestion, hostileBlockedUri, hostileDirective } from '../../testing/cspArbitraries';
import { directiveFallbackList } from './directiveFallbackList';
import { governingDirective } from './governingDirective';
import { parsePolicy, type Policy } from './parsePolicy';
import { sourceForViolation } from './sourceForViolation';
import { suggestPolicy, type Evidence } from './suggestPolicy';
import { broadSource, targetDirective } from './suggestionRules';
import { SUGGESTION_LIMITS } from './suggestionLimits';
import { urlMatchesSourceList } from './urlMatchesExpression';
import { policyProblems, wellFormedPolicy } from './wellFormedPolicy';

const SEED = Number(process.env.FUZZ_SEED || 20261128);
const RUNS = Number(process.env.FUZZ_RUNS || 300);
const PAGE = 'https://shop.example/cart';
const KINDS = ['script-src-elem', 'script-src-attr', 'style-src-elem', 'img-src', 'font-src', 'connect-src', 'media-src', 'object-src', 'frame-src', 'worker-src', 'manifest-src'];

/** Realistic reports (origins, the page's own, inline, eval, data:, frames) mixed with hostile ones. */
const blocked = fc.oneof(
  fc.constantFrom('https://js.payments.example/v3', 'https://cdn.example/a.png', 'https://shop.example/app.js', 'https://www.youtube-nocookie.com/embed/x', 'wss://live.example/'),
  fc.constantFrom('inline', 'eval', 'wasm-eval', 'data:image/png;base64,AA', 'blob:https://shop.example/1', '*', 'https:'),
  fc.domain().map((host) => `https://${host}/x.js`),
  hostileBlockedUri,
);
const report = fc.record({
  directive: fc.oneof(fc.constantFrom(...KINDS, 'script-src', 'style-src', 'child-src', 'default-src'), hostileDirective),
  blocked_uri: blocked,
  document_uri: fc.oneof(fc.constant(PAGE), fc.constant('https://shop.example/'), fc.webUrl()),
  reports: fc.integer({ min: 1, max: 500 }),
});
/** URLs each kind of fetch is checked with: the reports' own and a few the reports never named. */
const PROBES = ['https://evil.example/x.js', 'http://cdn.example/a.png', 'data:text/html,x', 'blob:https://evil.example/1', 'https://shop.example/app.js'];

const lower = (tokens: readonly string[]) => tokens.map((token) => token.toLowerCase());
const allows = (policy: Policy, kind: string, url: URL) => {
  const governing = governingDirective(policy, kind);
  return governing === undefined || urlMatchesSourceList(url, policy.get(governing)!, new URL(PAGE));
};
const parseUrl = (text: string) => {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
};

test('any stored reports: a valid policy, no broader than the base but for the sources it lists, each in the directive violated', () => {
  fc.assert(
    fc.property(basePolicy, fc.array(report, { maxLength: 40 }), (baseText, evidence: Evidence[]) => {
      const suggestion = suggestPolicy(baseText, evidence);
      expectWellFormedSuggestion(baseText, suggestion, SUGGESTION_LIMITS.addedSourcesPerDirective);
      expect(policyProblems(suggestion.policy)).toEqual([]);
      const base = wellFormedPolicy(parsePolicy(baseText));
      const suggested = parsePolicy(suggestion.policy);

      // Every base directive stays, with every source it had ('none' gives way to a source).
      for (const [name, tokens] of base) {
        const kept = new Set(lower(suggested.get(name) ?? []));
        for (const token of lower(tokens)) if (token != "'none'") expect(kept.has(token), `${name} keeps ${token}`).toBe(true);
      }
      // No bare scheme, * or unsafe keyword the base lacked in that directive's chain.
      for (const [name, tokens] of suggested) {
        const chain = directiveFallbackList(name).length ? directiveFallbackList(name) : [name];
        for (const token of lower(tokens)) {
          if (!broadSource(token)) continue;
          expect(chain.some((link) => lower(base.get(link) ?? []).includes(token)), `${name} ${token}`).toBe(true);
        }
      }
      // Each added source is an origin or 'self', in the directive a report of it violated (never
      // default-src for a specific one), and no directive gains a source that was not added.
      const addedTo = new Map(suggestion.directives.map(({ directive, added }) => [directive, new Set(added.map(({ source }) => source))]));
      for (const { directive, added } of suggestion.directives) {
        for (const { source } of added) {
          expect(broadSource(source), source).toBeUndefined();
          const violated = evidence.some((row) => {
            const name = String(row.directive).trim().toLowerCase();
            const candidate = directiveFallbackList(name).length ? sourceForViolation(name, String(row.blocked_uri), String(row.document_uri)) : undefined;
            return candidate?.source == source && targetDirective(base, name) == directive;
          });
          expect(violated, `${directive} ${source}`).toBe(true);
        }
      }
      // At least as strict as the base: a URL newly allowed for a kind of fetch is one of the sources
      // added to the directive that now governs it.
      const urls = [...evidence.map((row) => parseUrl(String(row.blocked_uri))), ...PROBES.map((url) => new URL(url))].filter((url) => url !== undefined);
      for (const kind of KINDS) {
        const governing = governingDirective(suggested, kind);
        for (const url of urls) {
          if (!allows(suggested, kind, url) || allows(base, kind, url)) continue;
          const sources = [...(addedTo.get(governing!) ?? [])];
          expect(urlMatchesSourceList(url, sources, new URL(PAGE)), `${kind} ${url.href} allowed only through an added source`).toBe(true);
        }
      }
    }),
    { seed: SEED, numRuns: RUNS },
  );
});
