import { H3, type H3Event } from 'h3';
import { expect, test } from 'vitest';
import { visitorDay } from '../core/visitorHash';
import { createVisitorOf } from './visitorOf';

const DAY = 86_400_000;
const monday = Date.UTC(2026, 5, 1, 9);

/** A request's event, as a route's handler gets it. */
const eventOf = async (headers: Record<string, string>) => {
  let captured: H3Event | undefined;
  const app = new H3().get('/', (event) => {
    captured = event;
    return '';
  });
  await app.fetch(new Request('http://collector.test/', { headers }));
  return captured!;
};

/** A salt store that counts its lookups, failing the first `failures` of them. */
const countingSalts = (failures = 0) => {
  const asked: number[] = [];
  return {
    asked,
    salts: {
      salt: async (day: number) => {
        asked.push(day);
        if (asked.length <= failures) throw new Error('database unavailable');
        return new Uint8Array(32).fill(day % 256);
      },
    },
  };
};

test("the day's salt is asked of the store once, however many reports arrive at once, and again when the day turns", async () => {
  const { asked, salts } = countingSalts();
  const visitorOf = createVisitorOf({ salts, clientOf: () => '203.0.113.7' });
  const event = await eventOf({ 'user-agent': 'Mozilla/5.0 Firefox/128.0' });
  const visitors = await Promise.all(Array.from({ length: 50 }, (_, i) => visitorOf(event, 'shop', monday + i)));
  expect(new Set(visitors).size).toBe(1);
  expect(asked).toEqual([visitorDay(monday)]);
  const tuesday = await visitorOf(event, 'shop', monday + DAY);
  expect(tuesday).not.toBe(visitors[0]);
  expect(asked).toEqual([visitorDay(monday), visitorDay(monday) + 1]);
});

test('the address and user agent are those of the request, as clientOf determines the address', async () => {
  const { salts } = countingSalts();
  let address = '203.0.113.7';
  const visitorOf = createVisitorOf({ salts, clientOf: () => address });
  const firefox = await eventOf({ 'user-agent': 'Mozilla/5.0 Firefox/128.0' });
  const one = await visitorOf(firefox, 'shop', monday);
  expect(await visitorOf(await eventOf({ 'user-agent': 'Mozilla/5.0 Chrome/131.0' }), 'shop', monday)).not.toBe(one);
  address = '198.51.100.4';
  expect(await visitorOf(firefox, 'shop', monday)).not.toBe(one);
});

test('a failed salt lookup fails its report and is not kept: the next report asks again', async () => {
  const { asked, salts } = countingSalts(1);
  const visitorOf = createVisitorOf({ salts, clientOf: () => '203.0.113.7' });
  const event = await eventOf({});
  await expect(visitorOf(event, 'shop', monday)).rejects.toThrow('database unavailable');
  expect(await visitorOf(event, 'shop', monday)).toMatch(/^[0-9a-f]{16}$/);
  expect(asked).toHaveLength(2);
});
