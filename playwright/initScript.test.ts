import { expect, test } from 'vitest';
import { functionSource, initScript } from './initScript';

test('beforeSend reaches the page as an expression, whichever way it was written', () => {
  const object = {
    beforeSend(report: object) {
      return report;
    },
    async later(report: object) {
      return report;
    },
  };
  const forms: Array<(...args: never[]) => unknown> = [
    (report: object) => report,
    function named(report: object) {
      return report;
    },
    object.beforeSend,
    object.later,
  ];
  for (const fn of forms) {
    const revived = new Function(`return (${functionSource(fn)})`)() as (report: object) => unknown;
    expect(typeof revived).toBe('function');
  }
  expect(functionSource(object.beforeSend)).toMatch(/^function \(report\)/);
  expect(functionSource(object.later)).toMatch(/^async function \(report\)/);
});

test('a built-in or bound function cannot be sent as source', () => {
  expect(() => functionSource(Math.max as never)).toThrow(/not a built-in or bound one/);
  expect(() => functionSource(((report: object) => report).bind(null) as never)).toThrow(/not a built-in or bound one/);
});

test('the init script calls the build with the options, its globals kept inside a function', () => {
  const script = initScript('var sitebeaconFixture = (config) => (globalThis.seen = config);', { siteKey: 'k', ingestOrigin: 'http://127.0.0.1:4000', capture: ['errors'] }, (report) => report);
  const scope: { seen?: { siteKey: string; capture: string[]; beforeSend?: (report: object) => unknown } } = {};
  new Function('globalThis', script)(scope);
  expect(scope.seen).toMatchObject({ siteKey: 'k', ingestOrigin: 'http://127.0.0.1:4000', capture: ['errors'] });
  expect(scope.seen!.beforeSend!({ a: 1 })).toEqual({ a: 1 });
  expect(script.startsWith('(() => {')).toBe(true);
});
