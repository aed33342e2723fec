import { expect, test } from 'vitest';
import { siteReads } from './siteReads';
import { vitalsDeviceOf, withVitalsDevice } from './vitalsDevice';

test("the device switch's state is the URL's vitals_device, apart from the issues' device filter; switching keeps the rest of the query", () => {
  expect(vitalsDeviceOf('?range=7d&vitals_device=mobile')).toBe('mobile');
  expect(vitalsDeviceOf('?vitals_device=desktop&device=mobile')).toBe('desktop');
  for (const search of ['', '?device=mobile', '?vitals_device=phone', '?vitals_device=', '?vitals_device=MOBILE']) expect(vitalsDeviceOf(search), search).toBeUndefined();
  expect(withVitalsDevice('?range=30d&status=resolved', 'tablet')).toBe('?range=30d&status=resolved&vitals_device=tablet');
  expect(withVitalsDevice('?range=30d&vitals_device=tablet', 'mobile')).toBe('?range=30d&vitals_device=mobile');
  expect(withVitalsDevice('?range=30d&vitals_device=tablet', undefined)).toBe('?range=30d');
});

test('the site page reads its Web Vitals and pages for the switched device, its issues for their own device filter', () => {
  const reads = siteReads('3f2a', '?range=7d&vitals_device=mobile&device=desktop');
  expect(new URL(reads.vitals, 'http://x').searchParams.get('device')).toBe('mobile');
  expect(new URL(reads.pages, 'http://x').searchParams.get('device')).toBe('mobile');
  expect(new URL(reads.issues, 'http://x').searchParams.get('device')).toBe('desktop');
  const all = siteReads('3f2a', '?range=7d');
  expect(new URL(all.vitals, 'http://x').searchParams.has('device')).toBe(false);
  expect(new URL(all.pages, 'http://x').searchParams.has('device')).toBe(false);
});
