// @vitest-environment happy-dom
// `release` and `environment` (docs/issues.md, docs/wire-format.md): from init's options or the script
// tag's data- attributes, on every error report and performance session the beacon sends.
import { expect, test } from 'vitest';
import { csp, errors, init, type Beacon, type BeaconOptions } from './index';
import { scriptOptions } from './scriptOptions';
import { useFakeNetwork } from './testing/fakeNetwork';
import { vitalsSession } from './vitalsSession';
import type { ReportedMetric } from './vitalsSession';

let beacon: Beacon | undefined;
const { sent } = useFakeNetwork(() => {
  beacon?.stop();
  beacon = undefined;
});

/** A metric source we control: what it is given, it reports. */
let reportMetric: (metric: ReportedMetric) => void = () => {};
const fakeVitals = () =>
  vitalsSession((listener) => {
    reportMetric = listener;
  });
const lcp = { name: 'LCP', value: 1200, rating: 'good', delta: 1200, id: 'v6-1', entries: [], navigationType: 'navigate' } as unknown as ReportedMetric;

/** A CSP violation as browsers make it: its fields on the event's prototype (see csp.test.ts). */
const violate = () => {
  const event = new Event('securitypolicyviolation');
  Object.setPrototypeOf(
    event,
    Object.assign(Object.create(Event.prototype), { documentURI: 'https://shop.example/', blockedURI: 'https://cdn.example/x.gif', effectiveDirective: 'img-src', disposition: 'enforce' }),
  );
  window.dispatchEvent(event);
};

/** Starts a beacon with every capture, makes one report of each kind and sends them. */
const everyKind = async (options: Partial<BeaconOptions>) => {
  beacon = init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [errors(), csp(), fakeVitals()], ...options });
  window.dispatchEvent(new ErrorEvent('error', { error: new TypeError('x is undefined'), message: 'x is undefined' }));
  beacon.captureError(new Error('caught'));
  violate();
  reportMetric(lcp);
  await beacon.flush();
  const byKind = (path: string) => sent().filter(({ url }) => url.includes(path)).map(({ body }) => body as unknown as Record<string, unknown>);
  const [errorReports] = byKind('/error-reports/');
  return { errorReports: errorReports as unknown as Array<Record<string, unknown>>, csp: byKind('/csp-reports/'), sessions: byKind('/performance-sessions/') };
};

test('init({ release, environment }) puts both on every error report and performance session', async () => {
  const { errorReports, csp, sessions } = await everyKind({ release: '1.4.2', environment: 'production' });
  expect(errorReports.map(({ error_message, release, environment }) => [error_message, release, environment])).toEqual([
    ['x is undefined', '1.4.2', 'production'],
    ['caught', '1.4.2', 'production'],
  ]);
  expect(sessions).toEqual([expect.objectContaining({ release: '1.4.2', environment: 'production', metrics: { LCP: expect.objectContaining({ value: 1200 }) } })]);
  // A CSP report keeps the CSP2 shape the browsers' own reports have: no such field there.
  expect(csp).toEqual([{ 'csp-report': expect.objectContaining({ 'effective-directive': 'img-src' }) }]);
});

test('not given, neither is sent', async () => {
  const { errorReports, sessions } = await everyKind({});
  expect(errorReports).toHaveLength(2);
  expect(sessions).toHaveLength(1);
  for (const report of [...errorReports, ...sessions]) {
    expect(report).not.toHaveProperty('release');
    expect(report).not.toHaveProperty('environment');
  }
});

test('one of them alone is sent alone, and beforeSend sees the report before they are added', async () => {
  const seen: object[] = [];
  const beforeSend = (report: object) => {
    seen.push({ ...report });
    return report;
  };
  const { errorReports } = await everyKind({ environment: 'staging', beforeSend });
  expect(errorReports[0]).toMatchObject({ environment: 'staging' });
  expect(errorReports[0]).not.toHaveProperty('release');
  expect(seen).toHaveLength(4);
  for (const report of seen) expect(report).not.toHaveProperty('environment');
});

test("the script tag's data-release and data-environment are the options of the same names", async () => {
  const script = document.createElement('script');
  script.src = 'https://in.example/beacon.js';
  script.dataset.siteKey = 'KEY';
  script.dataset.ingestOrigin = 'https://in.example';
  script.dataset.capture = 'errors';
  script.setAttribute('data-release', '2026.11.27-3');
  script.setAttribute('data-environment', 'production');
  const options = scriptOptions(script);
  expect(options).toMatchObject({ release: '2026.11.27-3', environment: 'production' });
  beacon = init(options);
  beacon.captureError(new Error('from the tag'));
  await beacon.flush();
  expect(sent()[0]!.body).toEqual([expect.objectContaining({ error_message: 'from the tag', release: '2026.11.27-3', environment: 'production' })]);
});
