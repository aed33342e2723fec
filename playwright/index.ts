// `sitebeacon/playwright`: fixtures and matchers for QA teams' own Playwright tests
// (README, "In your Playwright tests"). `@playwright/test` is a peer dependency.
export { test, expect } from './test';
export type { BeaconOptions, BeaconWorkerOptions, ExistingCollector } from './test';
export type { BeaconFixture } from './beaconFixture';
export type { BeaconProblem } from './problems';
export type { CaptureName } from './page/protocol';
export type { CspFilter, ErrorFilter, TextMatch } from './verdict';
export type { MetricName, VitalsExpectation } from './vitalsVerdict';
export { beaconMatchers } from './matchers';
