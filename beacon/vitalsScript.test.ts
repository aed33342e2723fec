import { expect, test, vi } from 'vitest';

const registrations: Array<[string, unknown]> = [];
vi.mock('web-vitals', () => {
  const on = (name: string) => (_callback: unknown, options: unknown) => void registrations.push([name, options]);
  return { onCLS: on('CLS'), onFCP: on('FCP'), onINP: on('INP'), onLCP: on('LCP'), onTTFB: on('TTFB') };
});

test("beacon.vitals.js's function registers the five metrics, with reportAllChanges as beacon.js asks", async () => {
  const { default: register } = await import('./vitalsScript');
  register(() => {}, true);
  expect(registrations).toEqual(['CLS', 'FCP', 'INP', 'LCP', 'TTFB'].map((name) => [name, { reportAllChanges: true }]));
});
