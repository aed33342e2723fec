import { expect, test, vi } from 'vitest';
import { monitor } from './monitor';

test('a throwing callback returns undefined instead of throwing', () => {
  const guarded = monitor(() => {
    throw new Error('inside the beacon');
  });
  expect(guarded()).toBeUndefined();
});

test('a rejected promise is swallowed, so the page sees no unhandledrejection', async () => {
  const unhandled = vi.fn();
  process.on('unhandledRejection', unhandled);
  monitor(async () => {
    throw new Error('later');
  })();
  await new Promise((resolve) => setTimeout(resolve, 10));
  process.off('unhandledRejection', unhandled);
  expect(unhandled).not.toHaveBeenCalled();
});

test('arguments and results pass through', () => {
  expect(monitor((a: number, b: number) => a + b)(2, 3)).toBe(5);
});
