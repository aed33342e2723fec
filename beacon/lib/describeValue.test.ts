// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { describeValue } from './describeValue';

describe('describeValue: a thrown or rejected value that is not an Error, from the value itself', () => {
  test('a string as it is', () => {
    expect(describeValue('stringError')).toBe('stringError');
    expect(describeValue('')).toBe('');
  });

  test('numbers, booleans, null, undefined, symbols and bigints by name', () => {
    expect(describeValue(42)).toBe('42');
    expect(describeValue(NaN)).toBe('NaN');
    expect(describeValue(false)).toBe('false');
    expect(describeValue(null)).toBe('null');
    expect(describeValue(undefined)).toBe('undefined');
    expect(describeValue(Symbol('gone'))).toBe('Symbol(gone)');
    expect(describeValue(10n)).toBe('10');
  });

  test('a plain object or array as JSON', () => {
    expect(describeValue({ code: 'E_CART', retry: false })).toBe('{"code":"E_CART","retry":false}');
    expect(describeValue([1, 'two'])).toBe('[1,"two"]');
    expect(describeValue(Object.assign(Object.create(null), { bare: true }))).toBe('{"bare":true}');
  });

  test('a cycle is marked instead of failing the description', () => {
    const order: Record<string, unknown> = { id: 7 };
    order.self = order;
    expect(describeValue(order)).toBe('{"id":7,"self":"[Circular]"}');
  });

  test('the JSON is bounded however large the object', () => {
    const state = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`key${index}`, index]));
    const described = describeValue(state);
    expect(described.length).toBeLessThan(2000);
    expect(described.startsWith('{"key0":0,"key1":1')).toBe(true);
  });

  test('an instance of a class as its name over its telling fields', () => {
    class ApiError {
      constructor(
        readonly status: number,
        readonly code: string,
      ) {}
    }
    expect(describeValue(new ApiError(503, 'busy'))).toBe('{"ApiError":{"code":"busy","status":503}}');
  });

  test("a Response by its type, URL and status, not as {}", () => {
    const response = new Response('nope', { status: 404 });
    Object.defineProperty(response, 'url', { value: 'https://shop.example/api/cart' });
    // The type is the engine's ("default" for a constructed one, "basic" or "cors" for a fetch's).
    expect(describeValue(response)).toMatch(/^\{"Response":\{"status":404,"url":"https:\/\/shop\.example\/api\/cart","type":"\w+"\}\}$/);
  });

  test('an event by its type and target: img.onerror = reject', () => {
    const img = document.createElement('img');
    img.src = 'https://cdn.example/a.png';
    const event = new Event('error');
    Object.defineProperty(event, 'target', { value: img });
    expect(describeValue(event)).toBe('{"Event":{"type":"error","target":{"HTMLImageElement":{"src":"https://cdn.example/a.png"}}}}');
  });

  test('an object whose getter throws is still described, by its kind', () => {
    const hostile = {
      get boom() {
        throw new Error('no');
      },
    };
    expect(describeValue(hostile)).toBe('[object Object]');
  });
});
