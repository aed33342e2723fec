// The policy suggestion: each source to the directive that governed it, and nothing a forged
// report could use to widen a policy beyond what the grammar and the base allow (docs/hostile-input.md, "Policies widened by reports").
import { describe, expect, test } from 'vitest';
import { collapseSources } from './collapseSources';
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

test('each source goes to the directive that governed it, with its evidence count', () => {
  const base = "default-src 'self'; img-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'";
  const suggestion = suggestPolicy(base, [
    row('img-src', 'https://cdn.example.net/pixel.gif', 3),
    row('img-src', 'https://cdn.example.net/other.gif', 2),
    // Chromium reports script-src-elem even when the policy has only script-src.
    row('script-src-elem', 'https://ads.example.org/tag.js', 4),
    // font-src is absent: default-src governs it.
    row('font-src', 'https://fonts.example/a.woff2'),
    // Not a fetch directive: no source list to widen.
    row('frame-ancestors', 'https://evil.example', 9),
    // Already allowed by the base (the report came from an older policy): counted, nothing added.
    row('script-src', 'eval', 2),
  ]);
  expect([...suggestion.structure]).toEqual([
    ['default-src', ["'self'", 'https://fonts.example']],
    ['img-src', ["'self'", 'https://cdn.example.net']],
    ['script-src', ["'self'", "'unsafe-inline'", "'unsafe-eval'", 'https://ads.example.org']],
  ]);
  expect(suggestion.policy).toBe(
    "default-src 'self' https://fonts.example; img-src 'self' https://cdn.example.net; script-src 'self' 'unsafe-inline' 'unsafe-eval' https://ads.example.org",
  );
  expect(suggestion.directives).toEqual([
    { directive: 'img-src', added: [{ source: 'https://cdn.example.net', reports: 5 }] },
    { directive: 'script-src', added: [{ source: 'https://ads.example.org', reports: 4 }] },
    { directive: 'default-src', added: [{ source: 'https://fonts.example', reports: 1 }] },
  ]);
  expect(suggestion.based_on_reports).toBe(12);
  expect(suggestion.withheld).toEqual([]);
});

test("'none' gives way to the first source; a directive with * needs no host, but data: still", () => {
  expect(suggestPolicy("object-src 'none'; img-src *", [
    row('object-src', 'https://plugins.example/x.swf'),
    row('img-src', 'data'),
    row('img-src', 'https://a.example/x.png'),
  ]).policy).toBe('object-src https://plugins.example; img-src * data:');
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
    expect(suggestion.withheld).toEqual([
      { directive: 'script-src', source: "'unsafe-eval'", reports: 3, reason: 'unsafe_keyword' },
      { directive: 'script-src-elem', source: "'unsafe-inline'", reports: 2, reason: 'unsafe_keyword' },
      { directive: 'script-src-attr', source: "'unsafe-inline'", reports: 1, reason: 'unsafe_keyword' },
    ]);
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

  test('data: for images where default-src governs scripts: images get their own directive instead', () => {
    const suggestion = suggestPolicy("default-src 'self'", [
      row('img-src', 'https://cdn.example/a.png', 5),
      row('img-src', 'data:image/png;base64,AA', 2),
      row('font-src', 'https://fonts.example/a.woff2', 1),
    ]);
    expect(suggestion.policy).toBe("default-src 'self' https://cdn.example https://fonts.example; img-src 'self' https://cdn.example data:");
    expect(suggestion.directives).toEqual([
      { directive: 'default-src', added: [{ source: 'https://cdn.example', reports: 5 }, { source: 'https://fonts.example', reports: 1 }] },
      { directive: 'img-src', added: [{ source: 'https://cdn.example', reports: 5 }, { source: 'data:', reports: 2 }] },
    ]);
  });

  test('data: and blob: for scripts or workers are withheld unless the base had them', () => {
    expect(suggestPolicy("script-src 'self'", [row('script-src-elem', 'data:text/javascript,alert(1)')]).withheld).toEqual([
      { directive: 'script-src-elem', source: 'data:', reports: 1, reason: 'unsafe_scheme' },
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
    expect(suggestion.policy).toBe("default-src 'self' https://cdn.example");
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
  test('beyond the cap, hosts of one parent domain collapse into a wildcard', () => {
    const evidence = Array.from({ length: 40 }, (_, index) => row('img-src', `https://h${index}.cdn.example/x.png`, 40 - index));
    const suggestion = suggestPolicy("img-src 'self'", [...evidence, row('img-src', 'https://other.example/y.png', 7)]);
    expect(suggestion.policy).toBe("img-src 'self' https://*.cdn.example https://other.example");
    expect(suggestion.directives).toEqual([
      { directive: 'img-src', added: [{ source: 'https://*.cdn.example', reports: 820 }, { source: 'https://other.example', reports: 7 }], collapsed: 40 },
    ]);
  });

  test('when wildcards are not enough, hosts collapse into their scheme', () => {
    const evidence = Array.from({ length: 30 }, (_, index) => row('connect-src', `https://api${index}.example/x`));
    expect(suggestPolicy("connect-src 'self'", [...evidence, row('connect-src', 'wss://live.example/')]).policy).toBe(
      "connect-src 'self' https: wss:",
    );
  });

  test('the evidence read is cut at the limit', () => {
    const evidence = Array.from({ length: 10 }, (_, index) => row('img-src', `https://h${index}.example/x.png`));
    const suggestion = suggestPolicy("img-src 'self'", evidence, { evidenceGroups: 3, addedSourcesPerDirective: 24 });
    expect(suggestion.policy).toBe("img-src 'self' https://h0.example https://h1.example https://h2.example");
  });

  test('collapseSources leaves a list under the cap alone and never makes *.com', () => {
    const few = new Map([['https://a.example', 1]]);
    expect(collapseSources(few, 2)).toEqual({ sources: few, collapsed: 0 });
    const tlds = new Map([['https://a.com', 1], ['https://b.com', 1], ['https://c.com', 1]]);
    expect(collapseSources(tlds, 2)).toEqual({ sources: new Map([['https:', 3]]), collapsed: 3 });
  });
});

test('the suggested policy parses back to the structure it was written from', () => {
  const suggestion = suggestPolicy("default-src 'self'", [row('img-src', 'https://cdn.example/a.png'), row('img-src', 'data')]);
  expect(parsePolicy(suggestion.policy)).toEqual(suggestion.structure);
});
