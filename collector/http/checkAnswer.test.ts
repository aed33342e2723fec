import * as v from 'valibot';
import { expect, test } from 'vitest';
import { checkAnswer } from './checkAnswer';
import { defineRoute } from './route';

const route = defineRoute({
  method: 'GET',
  path: '/api/thing',
  tag: 'Test',
  summary: 'A thing',
  auth: 'none',
  responses: {
    200: { description: 'The thing', schema: v.object({ name: v.string(), count: v.number() }) },
    204: 'Nothing',
    404: 'not_found',
  },
  handle: () => ({ name: 'a', count: 1 }),
});

test('an answer of the declared shape passes, and so does a declared body-less answer', () => {
  expect(() => checkAnswer(route, 200, { name: 'a', count: 1, extra: true })).not.toThrow();
  expect(() => checkAnswer(route, 204, null)).not.toThrow();
});

test('an answer its schema refuses throws, naming the route, the status and the field', () => {
  expect(() => checkAnswer(route, 200, { name: 'a', count: '1' })).toThrow(/GET \/api\/thing answered 200 with a body its schema refuses: count: /);
  expect(() => checkAnswer(route, 200, null)).toThrow(/without the body its schema declares/);
});

test('a status the route does not declare, or a raw body where JSON is declared, throws', () => {
  expect(() => checkAnswer(route, 201, { name: 'a', count: 1 })).toThrow(/201, a status it does not declare/);
  expect(() => checkAnswer(route, 200, '<html>')).toThrow(/a raw body where it declares a JSON body/);
  expect(() => checkAnswer(route, 204, { name: 'a', count: 1 })).toThrow(/a JSON body where it declares none/);
});

test("a handler's return type comes from its declared responses: another shape does not compile", () => {
  const declare = () => [
    defineRoute({
      method: 'GET',
      path: '/api/typed',
      tag: 'Test',
      summary: 'Typed',
      auth: 'none',
      responses: { 200: { description: 'A count', schema: v.object({ count: v.number() }) } },
      // @ts-expect-error: `count` must be a number (npx tsc -p . fails here without this line's expectation)
      handle: () => ({ count: 'one' }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/typed',
      tag: 'Test',
      summary: 'Typed',
      auth: 'none',
      responses: { 200: { description: 'A count', schema: v.object({ count: v.number() }) } },
      // @ts-expect-error: an answer needs its body; null is for body-less statuses (204)
      handle: () => null,
    }),
  ];
  expect(declare()).toHaveLength(2);
});
