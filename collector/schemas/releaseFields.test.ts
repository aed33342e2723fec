// `release` and `environment` on error reports and performance sessions (docs/issues.md, docs/wire-format.md):
// strings of at most MAX_RELEASE_LENGTH characters, refused with a clear 400 otherwise, never cut.
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MAX_RELEASE_LENGTH } from '../../beacon/lib/wire';
import { createTestCollector } from '../testing/testCollector';
import { expectAsValibot } from '../testing/expectAsValibot';
import { ErrorReportsSchema, ErrorReportsValibotSchema } from './errorReport';
import { fastErrorReports } from './errorReportFastPath';
import { PerformanceSessionSchema } from './performanceSession';

const report = { error_type: 'javascript_error', error_message: 'x is not defined' };
const session = { session_id: 's1', metrics: { LCP: { value: 1200 } } };
const longest = 'r'.repeat(MAX_RELEASE_LENGTH);

const issuesOf = (schema: v.GenericSchema<unknown, unknown>, body: unknown) => {
  const parsed = v.safeParse(schema, body);
  return parsed.success ? [] : parsed.issues.map((issue) => issue.message);
};

describe('error reports', () => {
  test('a release and an environment of up to 200 characters are kept as sent, on the fast path', () => {
    const sent = { ...report, release: longest, environment: 'production' };
    expect(fastErrorReports(sent)).toEqual([sent]);
    expect(v.parse(ErrorReportsSchema, sent)).toEqual([sent]);
    expect(expectAsValibot(JSON.stringify(sent), { fast: fastErrorReports, valibot: ErrorReportsValibotSchema, served: ErrorReportsSchema })).toBe(true);
  });

  test.each([
    ['a release over 200 characters', { release: longest + 'r' }, 'release: release is at most 200 characters'],
    ['an environment over 200 characters', { environment: 'e'.repeat(201) }, 'environment: environment is at most 200 characters'],
    ['a numeric release', { release: 12 }, 'release: release must be a string'],
    ['an environment that is null', { environment: null }, 'environment: environment must be a string'],
  ])('%s is refused, not cut, by both paths', (_name, fields, message) => {
    const sent = { ...report, ...fields };
    expect(fastErrorReports(sent)).toBeUndefined();
    expect(issuesOf(ErrorReportsSchema, sent)).toEqual([message]);
    expect(issuesOf(ErrorReportsSchema, [report, sent])).toEqual([message.replace(/^/, '1.')]);
    expectAsValibot(JSON.stringify(sent), { fast: fastErrorReports, valibot: ErrorReportsValibotSchema, served: ErrorReportsSchema });
  });
});

describe('performance sessions', () => {
  test('a release and an environment of up to 200 characters are kept as sent', () => {
    const sent = { ...session, release: '1.4.2', environment: longest };
    expect(v.parse(PerformanceSessionSchema, sent)).toEqual(sent);
  });

  test.each([
    ['a release over 200 characters', { release: longest + 'r' }, 'release: release is at most 200 characters'],
    ['a numeric environment', { environment: 3 }, 'environment: environment must be a string'],
  ])('%s is refused', (_name, fields, message) => {
    expect(issuesOf(PerformanceSessionSchema, { ...session, ...fields })).toEqual([message]);
  });
});

describe('the ingest endpoints', () => {
  let collector: ReturnType<typeof createTestCollector>;
  let siteKey: string;
  beforeEach(async () => {
    collector = createTestCollector();
    siteKey = await collector.addSite(['https://shop.example']);
  });
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });

  test.each([
    ['error-reports', { ...report, release: longest + 'r' }, 'release: release is at most 200 characters'],
    ['error-reports', [{ ...report, environment: { name: 'prod' } }], '0.environment: environment must be a string'],
    ['performance-sessions', { ...session, environment: 'e'.repeat(201) }, 'environment: environment is at most 200 characters'],
    ['performance-sessions', { ...session, release: 1.2 }, 'release: release must be a string'],
  ])('%s: 400 invalid_report naming the field', async (endpoint, body, message) => {
    const response = await collector.post(`/api/${endpoint}/${siteKey}`, body, { origin: 'https://shop.example' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_report', message } });
  });

  test('a release and an environment within bounds are accepted', async () => {
    const error = await collector.post(`/api/error-reports/${siteKey}`, { ...report, release: longest, environment: 'staging' }, { origin: 'https://shop.example' });
    expect(error.status).toBe(202);
    const performance = await collector.post(`/api/performance-sessions/${siteKey}`, { ...session, release: '1.4.2' }, { origin: 'https://shop.example' });
    expect(performance.status).toBe(202);
  });
});
