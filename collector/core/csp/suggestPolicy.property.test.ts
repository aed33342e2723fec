// Property tests of the suggestion over hostile input (docs/hostile-input.md: policies widened by reports, names from Object.prototype, bounded reads): directive names
// and blocked URIs with ";", ",", quotes, whitespace, control characters and Object.prototype
// names, and floods of distinct hosts. Fixed seed, like the fuzz suite.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { basePolicy, expectWellFormedSuggestion, hostileBlockedUri, hostileDirective, manyDistinctHosts, prototypeName } from '../../testing/cspArbitraries';
import { governingDirective } from './governingDirective';
import { parsePolicy } from './parsePolicy';
import { suggestPolicy, type Evidence } from './suggestPolicy';
import { SUGGESTION_LIMITS } from './suggestionLimits';
import { urlMatchesSourceList } from './urlMatchesExpression';

const SEED = Number(process.env.FUZZ_SEED || 20261122);
const RUNS = Number(process.env.FUZZ_RUNS || 300);
const CAP = SUGGESTION_LIMITS.addedSourcesPerDirective;

const documentUri = fc.oneof(fc.constant('https://shop.example/cart'), fc.webUrl(), prototypeName, fc.string({ maxLength: 10 }));
const evidenceRow = fc.record({
  directive: hostileDirective,
  blocked_uri: hostileBlockedUri,
  document_uri: documentUri,
  reports: fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(0, -1, 1.5, Number.NaN)),
});

test('any evidence: the suggestion is well formed, within the base and the cap, and parses back to its structure', () => {
  fc.assert(
    fc.property(basePolicy, fc.array(evidenceRow, { maxLength: 60 }), (base, evidence) => {
      expectWellFormedSuggestion(base, suggestPolicy(base, evidence), CAP);
    }),
    { seed: SEED, numRuns: RUNS },
  );
});

test('thousands of distinct hosts: still well formed and under the cap, and the page\'s real sources survive', () => {
  fc.assert(
    fc.property(basePolicy, fc.integer({ min: 1000, max: 5000 }), fc.constantFrom('img-src', 'script-src-elem', 'connect-src', 'font-src'), (base, count, directive) => {
      const flood: Evidence[] = manyDistinctHosts(count).map((blocked_uri) => ({ directive, blocked_uri, document_uri: 'https://shop.example/', reports: 1 }));
      const real: Evidence = { directive, blocked_uri: 'https://cdn.real.example/app.js', document_uri: 'https://shop.example/', reports: 50 };
      const suggestion = suggestPolicy(base, [real, ...flood]);
      expectWellFormedSuggestion(base, suggestion, CAP);
      // The source the page really needed (reported most) is allowed by the suggestion.
      const policy = parsePolicy(suggestion.policy);
      const governing = governingDirective(policy, directive);
      const page = new URL('https://shop.example/');
      expect(governing === undefined || urlMatchesSourceList(new URL(real.blocked_uri), policy.get(governing)!, page)).toBe(true);
    }),
    { seed: SEED, numRuns: Math.max(10, Math.round(RUNS / 15)) },
  );
});

test('50,000 rows in one suggestion (the evidence cap lifted): the top hosts by reports, never a scheme, and their coverage said', () => {
  // The old suggestion was quadratic here (a list search per host) and ran for minutes.
  const rows: Evidence[] = manyDistinctHosts(50_000).map((blocked_uri) => ({ directive: 'img-src', blocked_uri, document_uri: 'https://shop.example/', reports: 1 }));
  const suggestion = suggestPolicy("default-src 'self'", rows, { evidenceGroups: 50_000, addedSourcesPerDirective: CAP });
  expectWellFormedSuggestion("default-src 'self'", suggestion, CAP);
  expect(parsePolicy(suggestion.policy).get('default-src')).toEqual(["'self'"]);
  expect(parsePolicy(suggestion.policy).get('img-src')).toHaveLength(1 + CAP);
  expect(suggestion.policy).not.toMatch(/https:(?!\/\/)/);
  expect(suggestion.too_many).toEqual({ directive: 'img-src', kept: CAP, coverage: CAP / 50_000 });
});
