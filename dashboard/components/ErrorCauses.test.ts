// @vitest-environment happy-dom
import { h, render } from 'preact';
import { expect, test } from 'vitest';
import { causeHeading, ErrorCauses } from './ErrorCauses';

test('a cause of the chain reads "Caused by", an inner error of an AggregateError its place among the inner errors', () => {
  const causes = [
    { error_name: 'TypeError', error_message: 'fetch failed' },
    { error_message: 'first', aggregate: true },
    { error_name: 'RangeError', error_message: 'second', aggregate: true },
  ];
  expect(causes.map((_, index) => causeHeading(causes, index))).toEqual([
    'Caused by: TypeError: fetch failed',
    'Inner error 1 of the AggregateError: first',
    'Inner error 2 of the AggregateError: RangeError: second',
  ]);
});

test('each cause is listed in order with its stack in a pre; what a page sent is text, never markup', () => {
  const root = document.createElement('div');
  const hostile = '<img src=x onerror="globalThis.pwned=1">';
  const causes = [
    { error_name: 'Error', error_message: hostile, stack: `Error: ${hostile}\n    at f (https://shop.example/a.js:1:1)` },
    { error_message: 'no stack', aggregate: true },
  ];
  render(h(ErrorCauses, { causes }), root);
  const items = [...root.querySelectorAll('ol.causes > li')];
  expect(items.map((item) => item.querySelector('.message')!.textContent)).toEqual([`Caused by: Error: ${hostile}`, 'Inner error 1 of the AggregateError: no stack']);
  expect(items[0]!.querySelector('pre.stack')!.textContent).toContain('at f (https://shop.example/a.js:1:1)');
  expect(items[1]!.querySelector('pre')).toBeNull();
  expect(root.querySelector('img')).toBeNull();
});

test('no causes, nothing rendered', () => {
  const root = document.createElement('div');
  render(h(ErrorCauses, { causes: undefined }), root);
  expect(root.innerHTML).toBe('');
  render(h(ErrorCauses, { causes: [] }), root);
  expect(root.innerHTML).toBe('');
});
