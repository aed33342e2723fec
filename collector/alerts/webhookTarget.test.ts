import { expect, test } from 'vitest';
import { refusedWebhookTarget } from './webhookTarget';

// A rule's webhook target (docs/alerts.md, "The API" and "Private targets"), with the resolver a
// name's addresses come from given, as a DNS answer would give them.
const resolving = (addresses: string[]) => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

test('a name that resolves to an internal address is refused, naming it; a public one, or one that does not resolve, is taken', async () => {
  expect(await refusedWebhookTarget('https://hooks.corp.example/in', { resolve: resolving(['93.184.215.14', '10.0.0.5']) })).toMatch(
    /hooks\.corp\.example resolves to 10\.0\.0\.5, a private address/,
  );
  expect(await refusedWebhookTarget('https://metadata.example/', { resolve: resolving(['::ffff:169.254.169.254']) })).toMatch(/link-local/);
  expect(await refusedWebhookTarget('https://hooks.example/in', { resolve: resolving(['93.184.215.14', '2606:2800:220:1::1']) })).toBeUndefined();
  expect(await refusedWebhookTarget('https://gone.example/in', { resolve: async () => Promise.reject(new Error('ENOTFOUND')) })).toBeUndefined();
  expect(await refusedWebhookTarget('http://LOCALHOST:8080/', {})).toMatch(/loopback/);
  expect(await refusedWebhookTarget('http://[fd00::1]/', {})).toMatch(/unique-local/);
  expect(await refusedWebhookTarget('http://10.0.0.5/', { allowPrivate: true })).toBeUndefined();
});
