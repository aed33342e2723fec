import fc from 'fast-check';
import { expect, test } from 'vitest';
import { PROTOTYPE_NAMES } from '../../testing/cspArbitraries';
import { effectiveDirectiveOf } from './effectiveDirective';
import { isKnownDirective } from './isKnownDirective';

test.each([
  // [effective-directive, violated-directive, stored]
  ['img-src', 'img-src', 'img-src'],
  [undefined, 'img-src', 'img-src'],
  [undefined, "img-src 'self' https://cdn.example", 'img-src'],
  ["script-src 'self' 'unsafe-inline'", undefined, 'script-src'],
  ['', 'style-src-elem', 'style-src-elem'],
  ['SCRIPT-SRC-ELEM', undefined, 'script-src-elem'],
  ['inline', 'script-src', 'script-src'],
  ['script-src-elem', "default-src 'self'", 'script-src-elem'],
  [undefined, "default-src 'none'", 'default-src'],
  ['  connect-src  ', undefined, 'connect-src'],
  ['img-src;script-src', 'img-src', 'img-src'],
  ['frame-ancestors', 'frame-ancestors', 'frame-ancestors'],
  ['require-trusted-types-for', undefined, 'require-trusted-types-for'],
] as const)('effective %j, violated %j: %s', (effective, violated, stored) => {
  expect(effectiveDirectiveOf(effective, violated)).toBe(stored);
});

test.each([
  [undefined, undefined],
  ['', ''],
  ['constructor', '__proto__'],
  ['inline', 'eval'],
  ['img-src-x', 'imgsrc'],
  ['img-src;script-src', "img-src,script-src 'self'"],
])('no directive can be read from %j / %j', (effective, violated) => {
  expect(effectiveDirectiveOf(effective, violated)).toBeUndefined();
});

test('whatever a report carries, the answer is a bare known directive or nothing, and the given effective directive wins when it is one', () => {
  const directive = fc.oneof(
    fc.constantFrom('img-src', 'script-src', 'style-src-elem', 'connect-src', 'default-src', 'worker-src'),
    fc.constantFrom(...PROTOTYPE_NAMES),
    fc.string({ maxLength: 20 }),
  );
  const sent = fc.oneof(
    fc.constant(undefined),
    fc.tuple(directive, fc.constantFrom('', " 'self'", ' https://cdn.example', ';', ',x', '\t*'), fc.boolean()).map(([name, list, upper]) =>
      upper ? `${name}${list}`.toUpperCase() : `${name}${list}`,
    ),
  );
  fc.assert(
    fc.property(sent, sent, (effective, violated) => {
      const stored = effectiveDirectiveOf(effective, violated);
      if (stored === undefined) return;
      expect(isKnownDirective(stored)).toBe(true);
      expect(stored).toMatch(/^[a-z-]+$/);
      const given = effective?.trim().split(/\s/, 1)[0]!.toLowerCase();
      if (given && isKnownDirective(given)) expect(stored).toBe(given);
    }),
  );
});
