import { expect, test } from 'vitest';
import { parsePolicy, sourceFor, suggestPolicy } from './suggestPolicy';

const page = 'https://shop.example/cart?step=2';

test('sources are the origin, self, or the keyword a blocked URI stands for', () => {
  expect(sourceFor('https://cdn.example.net/pixel.gif?x=1', page)).toBe('https://cdn.example.net');
  expect(sourceFor('https://shop.example/app.js', page)).toBe("'self'");
  expect(sourceFor('inline', page)).toBe("'unsafe-inline'");
  expect(sourceFor('eval', page)).toBe("'unsafe-eval'");
  expect(sourceFor('wasm-eval', page)).toBe("'wasm-unsafe-eval'");
  expect(sourceFor('data', page)).toBe('data:');
  expect(sourceFor('data:image/png;base64,AA', page)).toBe('data:');
  expect(sourceFor('trusted-types-sink', page)).toBeUndefined();
  expect(sourceFor('', page)).toBeUndefined();
});

test('each source goes to the directive that governed it, with its evidence count', () => {
  const base = "default-src 'self'; img-src 'self'; script-src 'self' 'unsafe-inline'";
  const suggestion = suggestPolicy(base, [
    { directive: 'img-src', blocked_uri: 'https://cdn.example.net/pixel.gif', document_uri: page, reports: 3 },
    { directive: 'img-src', blocked_uri: 'https://cdn.example.net/other.gif', document_uri: page, reports: 2 },
    { directive: 'script-src', blocked_uri: 'eval', document_uri: page, reports: 1 },
    // Chromium reports script-src-elem even when the policy has only script-src.
    { directive: 'script-src-elem', blocked_uri: 'https://ads.example.org/tag.js', document_uri: page, reports: 4 },
    // font-src is absent: default-src governs it.
    { directive: 'font-src', blocked_uri: 'https://fonts.example/a.woff2', document_uri: page, reports: 1 },
    { directive: 'frame-ancestors', blocked_uri: 'https://evil.example', document_uri: page, reports: 9 },
  ]);
  expect(parsePolicy(suggestion.policy)).toEqual([
    { directive: 'default-src', sources: ["'self'", 'https://fonts.example'] },
    { directive: 'img-src', sources: ["'self'", 'https://cdn.example.net'] },
    { directive: 'script-src', sources: ["'self'", "'unsafe-inline'", "'unsafe-eval'", 'https://ads.example.org'] },
  ]);
  expect(suggestion.directives).toEqual([
    { directive: 'img-src', added: [{ source: 'https://cdn.example.net', reports: 5 }] },
    { directive: 'script-src', added: [{ source: 'https://ads.example.org', reports: 4 }, { source: "'unsafe-eval'", reports: 1 }] },
    { directive: 'default-src', added: [{ source: 'https://fonts.example', reports: 1 }] },
  ]);
  expect(suggestion.based_on_reports).toBe(11);
});

test("'none' gives way to the first source; a directive with * needs no host added", () => {
  expect(suggestPolicy("object-src 'none'; img-src *", [
    { directive: 'object-src', blocked_uri: 'https://plugins.example/x.swf', document_uri: page, reports: 1 },
    { directive: 'img-src', blocked_uri: 'data', document_uri: page, reports: 1 },
    { directive: 'img-src', blocked_uri: 'https://a.example/x.png', document_uri: page, reports: 1 },
  ]).policy).toBe('object-src https://plugins.example; img-src * data:');
});
