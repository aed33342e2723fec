// The policy suggestion: each source to the directive that governed it, and nothing a forged
// report could use to widen a policy beyond what the grammar and the base allow (docs/hostile-input.md, "Policies widened by reports").
import { describe, expect, test } from 'vitest';
import { topSources } from './suggestionRules';
import { parsePolicy } from './parsePolicy';
import { sourceForViolation } from './sourceForViolation';
import { suggestPolicy, type Evidence } from './suggestPolicy';

const page = 'https://shop.example/cart?step=2';
const row = (directive: string, blocked_uri: string, reports = 1, document_uri = page): Evidence => ({ directive, blocked_uri, document_uri, reports });

test('sources are the origin, self, or the keyword a blocked URI stands for, where it fits the directive', () => {
  const source = (directive: string, blocked: string) => sourceForViolation(directive, blocked, page)?.source;
  expect(source('img-src', 'https://cdn.example.net/pixel.gif?x=1')).toBe('https://cdn.example.net');
  expect(source('img-src', 'https://cdn.example.net:8443/pixel.gif')).toBe('https://cdn.example.net:8443');
  // WebKit's Reporting API keeps the default port: the same origin.
  expect(source('img-src', 'https://cdn.example.net:443/x.png')).toBe('https://cdn.example.net');
  expect(source('script-src-elem', 'https://shop.example/app.js')).toBe("'self'");
  expect(source('script-src-elem', 'inline')).toBe("'unsafe-inline'");
  expect(source('style-src-attr', 'inline')).toBe("'unsafe-inline'");
  expect(source('script-src', 'eval')).toBe("'unsafe-eval'");
  expect(source('script-src', 'wasm-eval')).toBe("'wasm-unsafe-eval'");
  expect(source('img-src', 'data')).toBe('data:');
  expect(source('img-src', 'data:image/png;base64,AA')).toBe('data:');
  expect(source('worker-src', 'blob:https://shop.example/0f2b')).toBe('blob:');
  // Keywords that do not fit the directive, and what no source expression can name.
  for (const [directive, blocked] of [
    ['img-src', 'inline'], ['default-src', 'inline'], ['img-src', 'eval'], ['script-src-elem', 'eval'],
    ['script-src', 'trusted-types-sink'], ['img-src', ''], ['img-src', 'constructor'], ['img-src', 'javascript:alert(1)'],
    ['img-src', 'https://[::1]/x'], ['img-src', 'https://a_b.example/x'], ['img-src', 'https://10.1.2.3/x'],
  ]) {
    expect(source(directive!, blocked!), `${directive} ${blocked}`).toBeUndefined();
  }
});

test('each source goes to the directive violated (created from its fallback when absent), never default-src, with its evidence count', () => {
  const base = "default-src 'self'; img-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'";
  const suggestion = suggestPolicy(base, [
    row('img-src', 'https://cdn.example.net/pixel.gif', 3),
    row('img-src', 'https://cdn.example.net/other.gif', 2),
    // Chromium reports script-src-elem even when the policy has only script-src.
    row('script-src-elem', 'https://ads.example.org/tag.js', 4),
    // font-src is absent: created from default-src's sources, default-src left as it was.
    row('font-src', 'https://fonts.example/a.woff2'),
    // Not a fetch directive: no source list to widen.
    row('frame-ancestors', 'https://evil.example', 9),
    // Already allowed by the base (the report came from an older policy): counted, nothing added.
    row('script-src', 'eval', 2),
  ]);
  expect([...suggestion.structure]).toEqual([
    ['default-src', ["'self'"]],
    ['img-src', ["'self'", 'https://cdn.example.net']],
    ['script-src', ["'self'", "'unsafe-inline'", "'unsafe-eval'", 'https://ads.example.org']],
    ['font-src', ["'self'", 'https://fonts.example']],
  ]);
  expect(suggestion.policy).toBe(
    "default-src 'self'; img-src 'self' https://cdn.example.net; script-src 'self' 'unsafe-inline' 'unsafe-eval' https://ads.example.org; font-src 'self' https://fonts.example",
  );
  expect(suggestion.directives).toEqual([
    { directive: 'img-src', added: [{ source: 'https://cdn.example.net', reports: 5 }] },
    { directive: 'script-src', added: [{ source: 'https://ads.example.org', reports: 4 }] },
    { directive: 'font-src', added: [{ source: 'https://fonts.example', reports: 1 }] },
  ]);
  expect(suggestion.too_many).toBeNull();
  expect(suggestion.based_on_reports).toBe(12);
  expect(suggestion.withheld).toEqual([]);
});

test("'none' gives way to the first source; a directive with * needs no host; data: is a bare scheme, withheld", () => {
  const suggestion = suggestPolicy("object-src 'none'; img-src *", [
    row('object-src', 'https://plugins.example/x.swf'),
    row('img-src', 'data'),
    row('img-src', 'https://a.example/x.png'),
  ]);
  expect(suggestion.policy).toBe('object-src https://plugins.example; img-src *');
  expect(suggestion.withheld).toEqual([{ directive: 'img-src', source: 'data:', reports: 1, reason: 'unsafe_scheme' }]);
});

test('a frame is allowed in frame-src, created from default-src, never by widening default-src', () => {
  const suggestion = suggestPolicy("default-src 'self'", [row('frame-src', 'https://www.youtube-nocookie.com/embed/x', 3)]);
  expect(suggestion.policy).toBe("default-src 'self'; frame-src 'self' https://www.youtube-nocookie.com");
});

test('nothing restricts a kind of fetch the base has no directive for: no directive is added (it would narrow)', () => {
  const suggestion = suggestPolicy("img-src 'self'", [row('script-src-elem', 'https://ads.example.org/tag.js')]);
  expect(suggestion.policy).toBe("img-src 'self'");
  expect(suggestion.directives).toEqual([]);
});

describe('unsafe sources (policies widened by reports)', () => {
  test("'unsafe-inline' and 'unsafe-eval' are withheld unless the base had them in the directive's chain", () => {
    const suggestion = suggestPolicy("default-src 'self'; script-src 'self'", [
      row('script-src', 'eval', 3),
      row('script-src-elem', 'inline', 2),
      row('script-src-attr', 'inline', 1),
    ]);
    expect(suggestion.policy).toBe("default-src 'self'; script-src 'self'");
    // Inline and eval get guidance instead of the keyword (nonces, hashes, 'strict-dynamic').
    expect(suggestion.withheld).toEqual([
      { directive: 'script-src', source: "'unsafe-eval'", reports: 3, reason: 'unsafe_keyword', guidance: expect.stringContaining('eval()') },
      { directive: 'script-src', source: "'unsafe-inline'", reports: 3, reason: 'unsafe_keyword', guidance: expect.stringContaining("'strict-dynamic'") },
    ]);
    expect(suggestion.withheld[1]!.guidance).toMatch(/nonce.*sha256/);
    expect(suggestion.based_on_reports).toBe(0);
  });

  test('a keyword the base has further down the chain may be added where the violation was', () => {
    const suggestion = suggestPolicy("default-src 'self' 'unsafe-inline'; style-src 'self'", [row('style-src-attr', 'inline', 2)]);
    expect(suggestion.policy).toBe("default-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'");
  });

  test('a forged img-src report of "inline" does not widen default-src, which also governs scripts', () => {
    const suggestion = suggestPolicy("default-src 'self' 'unsafe-inline'", [row('img-src', 'inline', 50), row('img-src', 'eval', 50)]);
    expect(suggestion.policy).toBe("default-src 'self' 'unsafe-inline'");
    expect(suggestion.withheld).toEqual([]);
  });

  test('a keyword never lands in a directive it does not fit, even when the base has it further down the chain', () => {
    const base = "default-src 'self' 'unsafe-eval' 'unsafe-inline'; style-src 'self'; img-src 'self'";
    const suggestion = suggestPolicy(base, [row('style-src', 'eval', 9), row('img-src', 'eval', 9), row('img-src', 'inline', 9), row('font-src', 'inline', 9)]);
    expect(suggestion.policy).toBe(base);
    expect(suggestion.based_on_reports).toBe(0);
  });

  test('images get their own directive; data: is added only where the base had it', () => {
    const suggestion = suggestPolicy("default-src 'self'", [
      row('img-src', 'https://cdn.example/a.png', 5),
      row('img-src', 'data:image/png;base64,AA', 2),
      row('font-src', 'https://fonts.example/a.woff2', 1),
    ]);
    expect(suggestion.policy).toBe("default-src 'self'; img-src 'self' https://cdn.example; font-src 'self' https://fonts.example");
    expect(suggestion.withheld).toEqual([{ directive: 'img-src', source: 'data:', reports: 2, reason: 'unsafe_scheme' }]);
    expect(suggestPolicy("default-src 'self'; img-src 'self' data:", [row('img-src', 'data:image/png;base64,AA')]).withheld).toEqual([]);
  });

  test('data: and blob: for scripts or workers are withheld unless the base had them', () => {
    expect(suggestPolicy("script-src 'self'", [row('script-src-elem', 'data:text/javascript,alert(1)')]).withheld).toEqual([
      { directive: 'script-src', source: 'data:', reports: 1, reason: 'unsafe_scheme' },
    ]);
    expect(suggestPolicy("default-src 'self' blob:; worker-src 'self'", [row('worker-src', 'blob:https://shop.example/1')]).policy).toBe(
      "default-src 'self' blob:; worker-src 'self' blob:",
    );
  });
});

describe('hostile names and values (names from Object.prototype)', () => {
  test('directives and blocked URIs named after Object.prototype members are ignored, never looked up', () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__'];
    const suggestion = suggestPolicy("default-src 'self'", [
      ...names.map((name) => row(name, 'https://cdn.example/a.png')),
      ...names.map((name) => row('img-src', name)),
      ...names.map((name) => row('img-src', 'https://cdn.example/a.png', 1, name)),
    ]);
    expect(suggestion.policy).toBe("default-src 'self'; img-src 'self' https://cdn.example");
    expect(suggestion.based_on_reports).toBe(names.length);
  });

  test('a base policy with a directive named constructor keeps it as an unknown directive', () => {
    expect(suggestPolicy("constructor 'self'; img-src 'self'", [row('img-src', 'https://cdn.example/a.png')]).policy).toBe(
      "constructor 'self'; img-src 'self' https://cdn.example",
    );
  });

  test('values that are not what the store promises are skipped, not trusted', () => {
    const hostile = [
      { directive: null, blocked_uri: 'https://a.example/', document_uri: page, reports: 1 },
      { directive: 'img-src', blocked_uri: 42, document_uri: page, reports: 1 },
      { directive: 'img-src', blocked_uri: 'https://b.example/', document_uri: page, reports: -3 },
      { directive: 'img-src', blocked_uri: 'https://c.example/', document_uri: page, reports: Number.NaN },
    ] as unknown as Evidence[];
    expect(suggestPolicy("default-src 'self'", hostile).policy).toBe("default-src 'self'");
  });

  test('an ill-formed base stored before validation existed is read through the grammar', () => {
    expect(suggestPolicy("img-src 'self' a,b \"x\" 'none'; report-to g,h", []).policy).toBe("img-src 'self'; report-to");
  });
});

describe('bounds (bounded reads)', () => {
  test('beyond the cap, the top hosts by reports are kept and their coverage said; never a wildcard or a scheme', () => {
    const evidence = Array.from({ length: 40 }, (_, index) => row('img-src', `https://h${index}.cdn.example/x.png`, 40 - index));
    const suggestion = suggestPolicy("img-src 'self'", evidence, { evidenceGroups: 1000, addedSourcesPerDirective: 3 });
    expect(suggestion.policy).toBe("img-src 'self' https://h0.cdn.example https://h1.cdn.example https://h2.cdn.example");
    expect(suggestion.directives[0]).toMatchObject({ directive: 'img-src', collapsed: 37 });
    expect(suggestion.too_many).toEqual({ directive: 'img-src', kept: 3, coverage: (40 + 39 + 38) / 820 });
  });

  test('the evidence read is cut at the limit', () => {
    const evidence = Array.from({ length: 10 }, (_, index) => row('img-src', `https://h${index}.example/x.png`));
    const suggestion = suggestPolicy("img-src 'self'", evidence, { evidenceGroups: 3, addedSourcesPerDirective: 24 });
    expect(suggestion.policy).toBe("img-src 'self' https://h0.example https://h1.example https://h2.example");
  });

  test('topSources keeps a list under the cap whole, with full coverage', () => {
    expect(topSources(new Map([['https://a.example', 1]]), 2)).toEqual({ kept: [['https://a.example', 1]], coverage: 1, left: 0 });
  });
});

test('the suggested policy parses back to the structure it was written from', () => {
  const suggestion = suggestPolicy("default-src 'self'", [row('img-src', 'https://cdn.example/a.png'), row('img-src', 'data')]);
  expect(parsePolicy(suggestion.policy)).toEqual(suggestion.structure);
});
