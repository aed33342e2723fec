import { expect, test } from 'vitest';
import { fingerprintOf } from './fingerprint';

const base = { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'Item 42 not found' };

test('numbers and ids in the message do not split a group', () => {
  expect(fingerprintOf(base)).toBe(fingerprintOf({ ...base, error_message: 'Item 7 not found' }));
  expect(fingerprintOf({ ...base, error_message: 'order 3f2a9c1b7e not found' })).toBe(
    fingerprintOf({ ...base, error_message: 'order 99aa77bb66 not found' }),
  );
  expect(fingerprintOf(base)).not.toBe(fingerprintOf({ ...base, error_message: 'Item 42 was deleted' }));
});

test('the first frame groups by function and file, not line or query', () => {
  const at = (line: number, query: string) =>
    `TypeError: x\n    at checkout (https://shop.example/app.js?v=${query}:${line}:5)\n    at HTMLButtonElement.<anonymous> (https://shop.example/app.js:1:1)`;
  expect(fingerprintOf({ ...base, stack: at(10, '1') })).toBe(fingerprintOf({ ...base, stack: at(99, '2') }));
  expect(fingerprintOf({ ...base, stack: at(10, '1') })).not.toBe(
    fingerprintOf({ ...base, stack: at(10, '1').replace('checkout', 'pay') }),
  );
  const gecko = 'checkout@https://shop.example/app.js:10:5\n@https://shop.example/app.js:1:1';
  expect(fingerprintOf({ ...base, stack: gecko })).toBe(fingerprintOf({ ...base, stack: gecko.replace(':10:5', ':11:2') }));
});
