// fast-check generators for hostile CSP input (docs/hostile-input.md: policies widened by reports, names from
// Object.prototype, bounded reads), shared by the unit
// property tests and the fuzz suite, and the invariants every suggested policy must keep.
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  directiveFallbackList,
  governingDirective,
  isKnownDirective,
  isSourceExpression,
  isWellFormedToken,
  parsePolicy,
  takesSourceList,
  type Policy,
  type Suggestion,
} from '../core/csp';

/** Names an object lookup would find on Object.prototype, plus `prototype`. */
export const PROTOTYPE_NAMES = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];

/** Characters that mean something in a policy or a header, and control characters. */
const CSP_SIGNIFICANT = [';', ',', "'", '"', ' ', '\t', '\n', '\r', '\f', '\0', '\x0b', '\x1f', '\x7f', '*', ':', '/', '\u00e9', '\u2028'];
const FETCH_DIRECTIVES = [
  'default-src', 'script-src', 'script-src-elem', 'script-src-attr', 'style-src', 'style-src-elem', 'style-src-attr',
  'img-src', 'font-src', 'connect-src', 'media-src', 'object-src', 'frame-src', 'child-src', 'worker-src', 'manifest-src',
];

export const prototypeName = fc.constantFrom(...PROTOTYPE_NAMES);
const significant = fc.constantFrom(...CSP_SIGNIFICANT);
/** A string with CSP-significant characters mixed into `base`. */
const salted = (base: fc.Arbitrary<string>) =>
  fc.tuple(base, fc.array(fc.tuple(significant, fc.nat()), { maxLength: 3 })).map(([text, salts]) =>
    salts.reduce((acc, [salt, at]) => acc.slice(0, at % (acc.length + 1)) + salt + acc.slice(at % (acc.length + 1)), text),
  );

/** A directive name as a report may carry it: real, uppercase, Object.prototype's, or salted. */
export const hostileDirective = fc.oneof(
  fc.constantFrom(...FETCH_DIRECTIVES, 'frame-ancestors', 'report-uri', 'trusted-types'),
  fc.constantFrom(...FETCH_DIRECTIVES).map((name) => name.toUpperCase()),
  prototypeName,
  salted(fc.constantFrom(...FETCH_DIRECTIVES)),
  fc.string({ maxLength: 20 }),
);

/** A blocked URI as a report may carry it. */
export const hostileBlockedUri = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom('inline', 'eval', 'wasm-eval', 'data', 'blob', 'trusted-types-sink', 'self', "'self'", '*', 'https:'),
  prototypeName,
  salted(fc.webUrl()),
  fc.domain().map((host) => `https://${host}/x.js`),
  fc.constantFrom('data:image/png;base64,AA', 'blob:https://shop.example/1', 'javascript:alert(1)', 'https://[::1]/x', 'https://a_b.example/x'),
  fc.string({ maxLength: 30 }),
);

/** `count` distinct hosts, as blocked URIs (a flood of forged reports). */
export const manyDistinctHosts = (count: number) => Array.from({ length: count }, (_, index) => `https://h${index}.flood${index % 97}.example/p.js`);

const source = fc.oneof(
  fc.constantFrom("'self'", "'unsafe-inline'", "'unsafe-eval'", "'none'", '*', 'data:', 'blob:', 'https:', "'nonce-abc123'", "'strict-dynamic'"),
  fc.domain().map((host) => `https://${host}`),
);
/** A well-formed base policy: a few fetch directives (and sometimes report-to), `'none'` alone. */
export const basePolicy = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...FETCH_DIRECTIVES), fc.uniqueArray(source, { minLength: 1, maxLength: 4 })), {
    minLength: 1,
    maxLength: 5,
    selector: ([name]) => name,
  })
  .chain((directives) => fc.boolean().map((reportTo) => [...directives, ...(reportTo ? [['report-to', ['group']] as [string, string[]]] : [])]))
  .map((directives) =>
    directives
      .map(([name, sources]) => [name, sources.length > 1 ? sources.filter((token) => token != "'none'") : sources] as const)
      .map(([name, sources]) => [name, ...sources].join(' '))
      .join('; '),
  );

const lower = (tokens: readonly string[]) => tokens.map((token) => token.toLowerCase());
const UNSAFE = ["'unsafe-inline'", "'unsafe-eval'", "'wasm-unsafe-eval'", "'unsafe-hashes'"];
/** The list in `base` that a directive's sources came from: its own, or its governing one's. */
const baseListFor = (base: Policy, name: string) => {
  const chain = directiveFallbackList(name);
  const from = (chain.length ? chain : [name]).find((candidate) => base.has(candidate));
  return from === undefined ? [] : base.get(from)!;
};

/**
 * What every suggested policy must be (docs/hostile-input.md, "Policies widened by reports"): it parses back to its structure; each
 * directive is from the base or known; each token matches the grammar (no ";", ",", quote,
 * whitespace or control character from a report); an unsafe keyword only where the base had it in
 * the directive's chain; no directive longer than its base list plus the cap.
 */
export const expectWellFormedSuggestion = (baseText: string, suggestion: Pick<Suggestion, 'policy'> & { structure?: Policy }, cap: number) => {
  const base = parsePolicy(baseText);
  const parsed = parsePolicy(suggestion.policy);
  if (suggestion.structure) expect(parsed).toEqual(suggestion.structure);
  expect(suggestion.policy).not.toMatch(/[\x00-\x1f\x7f,"]|[^\x00-\x7f]/);
  for (const [name, tokens] of parsed) {
    expect(base.has(name) || isKnownDirective(name), `directive ${name}`).toBe(true);
    for (const token of tokens) {
      expect(isWellFormedToken(name, token), `${name} ${JSON.stringify(token)}`).toBe(true);
      if (takesSourceList(name)) expect(isSourceExpression(token)).toBe(true);
      if (UNSAFE.includes(token.toLowerCase())) {
        const chain = directiveFallbackList(name).length ? directiveFallbackList(name) : [name];
        expect(chain.some((link) => base.get(link)?.some((kept) => kept.toLowerCase() == token.toLowerCase())), `${name} ${token}`).toBe(true);
      }
    }
    expect(tokens.length, `${name} length`).toBeLessThanOrEqual(baseListFor(base, name).length + cap);
  }
  // data:, blob: and filesystem: run script only where the base let them (in the fetch's chain).
  for (const fetch of ['script-src-elem', 'script-src-attr', 'worker-src']) {
    const governing = governingDirective(parsed, fetch);
    for (const scheme of ['data:', 'blob:', 'filesystem:']) {
      if (governing === undefined || !lower(parsed.get(governing)!).includes(scheme)) continue;
      expect(directiveFallbackList(fetch).some((link) => lower(base.get(link) ?? []).includes(scheme)), `${scheme} for ${fetch}`).toBe(true);
    }
  }
};
