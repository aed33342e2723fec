import { expect, test } from 'vitest';
import { errors, init } from './index';

test('importing and calling init where there is no window (SSR) does nothing and throws nothing', async () => {
  expect(typeof window).toBe('undefined');
  const beacon = init({ siteKey: 'k', capture: [errors()] });
  beacon.captureError(new Error('on the server'));
  await expect(beacon.flush()).resolves.toBeUndefined();
  beacon.stop();
});
