// Parsing (CSP3 §2.2.1, §2.2.2), the grammar of §2.3 and §2.3.1, and the serializer.
import { describe, expect, test } from 'vitest';
import { directiveFallbackList } from './directiveFallbackList';
import { governingDirective } from './governingDirective';
import { isKnownDirective, takesSourceList } from './isKnownDirective';
import { parsePolicy, parsePolicyList } from './parsePolicy';
import { isSourceExpression, parseSourceExpression } from './parseSourceExpression';
import { serializePolicy } from './serializePolicy';
import { policyProblems, wellFormedPolicy } from './wellFormedPolicy';

describe('parsePolicy (CSP3 §2.2.1)', () => {
  test('splits on ";", lowercases names, keeps the first of duplicates, splits values on ASCII whitespace', () => {
    const policy = parsePolicy(" Default-SRC 'self' ;\timg-src  https://cdn.example\n data: ;; IMG-SRC * ; upgrade-insecure-requests");
    expect([...policy]).toEqual([
      ['default-src', ["'self'"]],
      ['img-src', ['https://cdn.example', 'data:']],
      ['upgrade-insecure-requests', []],
    ]);
  });

  test('drops non-ASCII directives and names outside the directive-name grammar', () => {
    expect([...parsePolicy("img-src https://ü.example; script_src 'none'; fönt-src *; font-src 'self'")]).toEqual([['font-src', ["'self'"]]]);
  });

  test('names from Object.prototype are ordinary keys of a Map', () => {
    const policy = parsePolicy("constructor 'self'; __proto__ x; tostring y; default-src 'self'");
    expect([...policy.keys()]).toEqual(['constructor', 'tostring', 'default-src']);
    expect(parsePolicy("img-src 'self'").has('constructor')).toBe(false);
    expect(Object.getPrototypeOf(policy)).toBe(Map.prototype);
  });

  test('a header value is a comma-separated list of policies (§2.2.2); empty ones are left out', () => {
    const policies = parsePolicyList("default-src 'self', , script-src 'none'");
    expect(policies.map((policy) => [...policy])).toEqual([[['default-src', ["'self'"]]], [['script-src', ["'none'"]]]]);
  });
});

describe('source expressions (CSP3 §2.3.1)', () => {
  test.each([
    ['https:', { kind: 'scheme', scheme: 'https' }],
    ['custom-scheme:', { kind: 'scheme', scheme: 'custom-scheme' }],
    // The grammar's own example of a scheme with a dot: this is a scheme-source, not a host.
    ['another.custom-scheme:', { kind: 'scheme', scheme: 'another.custom-scheme' }],
    ['example.com', { kind: 'host', host: 'example.com' }],
    ['*.example.com', { kind: 'host', host: '*.example.com' }],
    ['https://*.example.com:12/path/to/file.js', { kind: 'host', scheme: 'https', host: '*.example.com', port: '12', path: '/path/to/file.js' }],
    ['*', { kind: 'host', host: '*' }],
    ['http://example.com:*', { kind: 'host', scheme: 'http', host: 'example.com', port: '*' }],
    ["'self'", { kind: 'keyword', keyword: "'self'" }],
    ["'Unsafe-Inline'", { kind: 'keyword', keyword: "'unsafe-inline'" }],
    ["'strict-dynamic'", { kind: 'keyword', keyword: "'strict-dynamic'" }],
    ["'none'", { kind: 'none' }],
    ["'nonce-ch4hvvbHDpv7xCSvXCs3BrNggHdTzxUA'", { kind: 'nonce', value: 'ch4hvvbHDpv7xCSvXCs3BrNggHdTzxUA' }],
    ["'sha256-abcd+/_-=='", { kind: 'hash', algorithm: 'sha256', value: 'abcd+/_-==' }],
  ])('%s', (token, expected) => {
    expect(parseSourceExpression(token)).toEqual(expected);
  });

  test.each([
    'https://a.example;b', 'https://a.example,b', '"self"', "'self", 'self\'', "'unsafe-anything'", 'https://a b', 'https://a\u0000b',
    'https://[::1]', 'https://a_b.example', "'sha1-abc'", "'nonce-'", "'nonce-a b'", 'https://a.example/p?q', 'https://a.example/p#f',
    'https://a.example//x', 'https://', '', "'sha256-abc==='", 'https://*a.example', 'https://ü.example',
  ])('not a source expression: %j', (token) => {
    expect(isSourceExpression(token)).toBe(false);
  });
});

describe('directives', () => {
  test('the fallback lists of CSP3 "Get fetch directive fallback list", itself first; empty for others', () => {
    expect(directiveFallbackList('script-src-elem')).toEqual(['script-src-elem', 'script-src', 'default-src']);
    expect(directiveFallbackList('worker-src')).toEqual(['worker-src', 'child-src', 'script-src', 'default-src']);
    expect(directiveFallbackList('frame-src')).toEqual(['frame-src', 'child-src', 'default-src']);
    expect(directiveFallbackList('img-src')).toEqual(['img-src', 'default-src']);
    for (const name of ['frame-ancestors', 'report-uri', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(directiveFallbackList(name)).toEqual([]);
    }
  });

  test('the governing directive is the first of the fallback list the policy has', () => {
    const policy = parsePolicy("default-src 'self'; script-src 'self'; child-src blob:");
    expect(governingDirective(policy, 'script-src-elem')).toBe('script-src');
    expect(governingDirective(policy, 'worker-src')).toBe('child-src');
    expect(governingDirective(policy, 'img-src')).toBe('default-src');
    expect(governingDirective(parsePolicy("img-src 'self'"), 'connect-src')).toBeUndefined();
    expect(governingDirective(policy, 'constructor')).toBeUndefined();
  });

  test('known directives and the ones that take a source list', () => {
    expect(isKnownDirective('script-src-attr')).toBe(true);
    expect(isKnownDirective('trusted-types')).toBe(true);
    expect(isKnownDirective('constructor')).toBe(false);
    expect(takesSourceList('frame-ancestors')).toBe(true);
    expect(takesSourceList('report-to')).toBe(false);
    expect(takesSourceList('sandbox')).toBe(false);
  });
});

describe('well-formedness and the serializer', () => {
  test('policyProblems names each fault of a serialized policy', () => {
    expect(policyProblems("default-src 'self'; img-src https://cdn.example data:; report-to group-1")).toEqual([]);
    expect(policyProblems("img-src 'self' https://a.example,b")).toEqual(['img-src: "https://a.example,b" is not a source expression']);
    expect(policyProblems("img_src 'self'")).toEqual(['"img_src" is not a directive name']);
    expect(policyProblems("img-src 'self'; IMG-SRC *")).toEqual(['img-src appears twice (browsers ignore all but the first)']);
    expect(policyProblems("img-src 'none' 'self'")).toEqual(["img-src: 'none' must stand alone"]);
    expect(policyProblems('img-src https://ü.example')).toEqual(['"img-src": a directive must be ASCII (browsers ignore it otherwise)']);
    expect(policyProblems('script-src "unsafe-inline"')).toEqual(['script-src: "\\"unsafe-inline\\"" is not a source expression']);
  });

  test('wellFormedPolicy keeps only well-formed tokens, and drops a \'none\' beside other sources', () => {
    const policy = wellFormedPolicy(new Map([['img-src', ["'none'", 'https://a.example', 'x;y', 'a\u0001b']], ['report-to', ['g', 'h,i']]]));
    expect([...policy]).toEqual([['img-src', ['https://a.example']], ['report-to', ['g']]]);
  });

  test('serializePolicy writes "name tokens; name tokens" and parses back to the same structure', () => {
    const policy = new Map([['default-src', ["'self'"]], ['img-src', ["'self'", 'https://cdn.example']], ['upgrade-insecure-requests', []]]);
    const text = serializePolicy(policy);
    expect(text).toBe("default-src 'self'; img-src 'self' https://cdn.example; upgrade-insecure-requests");
    expect(parsePolicy(text)).toEqual(policy);
  });

  test('serializePolicy refuses to write anything outside the grammar', () => {
    for (const policy of [
      new Map([['img-src', ['https://a.example; script-src *']]]),
      new Map([['img-src', ['a,b']]]),
      new Map([['img-src', ["'unsafe-inline\"'"]]]),
      new Map([['img src', ['*']]]),
      new Map([['report-uri', ['https://in.example/a b']]]),
      new Map([['report-to', ['g\u0000']]]),
    ]) {
      expect(() => serializePolicy(policy)).toThrow(TypeError);
    }
  });
});
