// WordPress registration across sites (docs/hostile-input.md, "Registration across sites"), as a property over HTTP: whatever
// sequence of registrations and check-ins three keys make (two sites' keys and the installation
// key), one site's key never reaches another site's key, origins or install, no site's origins ever
// change, and the installation key joins the site that has a URL's origin instead of creating one.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';

const ORIGINS = { a: ['https://a.example', 'https://www.a.example'], b: ['https://b.example'] };
const NEW_ORIGINS = ['https://c.example', 'https://d.example:8443'];
const ALL_ORIGINS = [...ORIGINS.a, ...ORIGINS.b, ...NEW_ORIGINS];
const PATHS = ['', '/', '/blog', '/blog/', '/?p=1', '/shop/#x'];

type KeyName = 'a' | 'b' | 'installation';
const command = fc.oneof(
  fc.record({
    kind: fc.constant('register' as const),
    key: fc.constantFrom<KeyName>('a', 'b', 'installation'),
    origin: fc.constantFrom(...ALL_ORIGINS),
    path: fc.constantFrom(...PATHS),
  }),
  fc.record({
    kind: fc.constant('checkIn' as const),
    key: fc.constantFrom<KeyName>('a', 'b', 'installation'),
    site: fc.constantFrom<'a' | 'b' | undefined>('a', 'b', undefined),
  }),
);

test("one site's key never reaches another site; registration never changes a site's origins", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
      const collector = createTestCollector();
      try {
        const siteKeys = { a: await collector.addSite(ORIGINS.a, 'A'), b: await collector.addSite(ORIGINS.b, 'B') };
        const keys: Record<KeyName, string> = {
          a: await collector.apiKey(siteKeys.a),
          b: await collector.apiKey(siteKeys.b),
          installation: await collector.apiKey(),
        };
        /** The site each origin registered with the installation key went to. */
        const joined = new Map<string, string>([...ORIGINS.a.map((o) => [o, siteKeys.a] as const), ...ORIGINS.b.map((o) => [o, siteKeys.b] as const)]);
        for (const step of commands) {
          const request = (path: string, body: object) =>
            collector.post(path, body, { authorization: `Bearer ${keys[step.key]}` });
          const response =
            step.kind == 'register'
              ? await request('/api/v1/wordpress/register', { site_url: step.origin + step.path })
              : await request('/api/v1/wordpress/check-in', step.site ? { site_key: siteKeys[step.site] } : {});
          const text = await response.text();
          const body = JSON.parse(text) as { site_key?: string; error?: { code: string } };
          // A site's key sees nothing of the other site, not even its key in an error.
          if (step.key != 'installation') {
            const other = siteKeys[step.key == 'a' ? 'b' : 'a'];
            expect(text).not.toContain(other);
          }
          if (step.kind == 'register') {
            if (step.key == 'installation') {
              expect(response.status).toBeLessThan(300);
              const expected = joined.get(step.origin);
              if (expected) expect(body.site_key).toBe(expected);
              else joined.set(step.origin, body.site_key!);
            } else if (ORIGINS[step.key].includes(step.origin)) {
              expect([200, 201]).toContain(response.status);
              expect(body.site_key).toBe(siteKeys[step.key]);
            } else {
              expect(response.status).toBe(409);
              expect(body.error!.code).toBe('origin_not_in_site');
            }
          } else if (step.key != 'installation' && step.site && step.site != step.key) {
            expect(response.status).toBe(403);
          } else if (response.status == 200) {
            expect(body.site_key).toBe(step.site ? siteKeys[step.site] : siteKeys[step.key as 'a' | 'b']);
          }
          // Invariants of the whole store.
          expect((await collector.store.sites.get(siteKeys.a))!.allowed_origins).toEqual(ORIGINS.a);
          expect((await collector.store.sites.get(siteKeys.b))!.allowed_origins).toEqual(ORIGINS.b);
          for (const site of ['a', 'b'] as const) {
            const install = await collector.store.wordpress.get(siteKeys[site]);
            if (install) expect(ORIGINS[site]).toContain(new URL(install.site_url).origin);
          }
        }
        // One site per new origin, however often it registered.
        const sites = await collector.store.sites.list();
        const newOrigins = new Set([...joined.keys()].filter((origin) => NEW_ORIGINS.includes(origin)));
        expect(sites.length).toBe(3 + newOrigins.size);
        expect(collector.errors).toEqual([]);
      } finally {
        await collector.close();
      }
    }),
    { seed: 20261125, numRuns: 30 },
  );
  // A fresh collector (a new SQLite file) per run, on a machine shared with other work.
}, 60_000);
