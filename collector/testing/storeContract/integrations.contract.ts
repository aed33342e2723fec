import { describe, expect } from 'vitest';
import { hashApiKey } from '../../core/keys';
import { newCspReport } from '../../core/newReports';
import { DEFAULT_SITE_KEY } from '../../core/records';
import { violation } from './violation';
import type { StoreTest } from './storeTest';

/**
 * WordPress installs, actions, CSP projects and server agents (store/contract/integrations.ts),
 * part of the store contract (store.contract.ts), run by describeStoreContract with its fresh store
 * for each test.
 *
 * @example
 * describeIntegrationsContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeIntegrationsContract = (test: StoreTest) =>
  describe('integrations', () => {

    test('a WordPress install is put once per site, found by URL, and records check-ins', async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      await store.wordpress.put({ site_key: shop, site_url: 'https://shop.example', name: 'Shop' });
      await store.wordpress.put({ site_key: shop, site_url: 'https://shop.example', name: 'Shop renamed' });
      expect(await store.wordpress.findByUrl('https://shop.example')).toMatchObject({ site_key: shop, name: 'Shop renamed' });
      await store.wordpress.recordCheckIn(shop, { plugin_version: '1.4.0', status: { cache: 'on' } });
      const install = await store.wordpress.get(shop);
      expect(install).toMatchObject({ plugin_version: '1.4.0', status: { cache: 'on' } });
      expect(Date.parse(install!.last_check_in_at!)).not.toBeNaN();
      expect(await store.wordpress.findByUrl('https://other.example')).toBeUndefined();
    });

    test('actions wait, oldest first, until completed', async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const first = await store.actions.add(shop, { type: 'flush_cache' });
      const second = await store.actions.add(shop, { type: 'ping', payload: { n: 1 } });
      expect((await store.actions.pending(shop)).map((action) => action.id)).toEqual([first.id, second.id]);
      await store.actions.complete(first.id, { status: 'succeeded', message: 'done', result: { entries: 3 } });
      expect(await store.actions.get(first.id)).toMatchObject({ status: 'succeeded', message: 'done', result: { entries: 3 } });
      expect((await store.actions.pending(shop)).map((action) => action.id)).toEqual([second.id]);
    });

    test('CSP projects: create, list by site, update, delete', async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const project = await store.cspProjects.create({ site_key: shop, name: 'Main', mode: 'report-only', base_policy: "default-src 'self'" });
      expect(project).toMatchObject({ site_key: shop, name: 'Main', mode: 'report-only' });
      expect(await store.cspProjects.list(shop)).toHaveLength(1);
      expect(await store.cspProjects.list(DEFAULT_SITE_KEY)).toHaveLength(0);
      expect(await store.cspProjects.update(project.id, { mode: 'enforce' })).toMatchObject({ mode: 'enforce', name: 'Main' });
      await store.cspProjects.delete(project.id);
      expect(await store.cspProjects.get(project.id)).toBeUndefined();
    });

    test('server agents: added, found by id, heartbeats recorded', async ({ store, seed }) => {
      const agent = await store.agents.add({ id: 'agt_1', token_hash: hashApiKey('t'), hostname: 'web1', os: 'linux', arch: 'x86_64', agent_version: '1.0.0' });
      expect(agent).toMatchObject({ id: 'agt_1', hostname: 'web1' });
      await store.agents.recordHeartbeat('agt_1', { agent_version: '1.0.1', status: { load: 0.4 } });
      expect(await store.agents.get('agt_1')).toMatchObject({ agent_version: '1.0.1', status: { load: 0.4 } });
      expect(await store.agents.get('agt_2')).toBeUndefined();
      const shop = await seed.addSite(['https://shop.example']);
      await store.agents.add({ id: 'agt_3', token_hash: hashApiKey('u'), hostname: 'web3', os: 'linux', arch: 'arm64', agent_version: '1.0.0', site_key: shop });
      expect((await store.agents.list(shop)).map((each) => each.id)).toEqual(['agt_3']);
      expect(await store.agents.list('no-site')).toEqual([]);
    });

    // docs/csp-reports.md, "Evidence per source".
    test("CSP sources: each group's evidence (reports, pages, visitors, first seen, user agents), the site's visitors", async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const now = Date.UTC(2026, 5, 10, 12);
      const insert = (reports: ReturnType<typeof violation>[], at: number, visitor: string, userAgent: string) =>
        store.csp.insert(shop, reports.map(newCspReport), { received_at: at, user_agent: userAgent, visitor });
      await insert([violation('frame-src', 'https://player.example/e/1'), violation('frame-src', 'https://player.example/e/2', 'https://shop.example/p')], now, 'v1', 'UA one');
      await insert([violation('frame-src', 'https://player.example/e/1')], now - 5_000, 'v2', 'UA two');
      await insert([violation('frame-src', 'https://player.example/e/1')], now + 5_000, 'v2', 'UA two');
      await insert([violation('img-src', 'https://inject.example/x.gif')], now, 'v3', 'UA one');
      await store.performance.upsert(shop, { session_id: 's1', page_url: 'https://shop.example/', metrics: {} }, { received_at: now, visitor: 'v4' });
      const evidence = await store.cspSources.evidence(shop, [
        { directive: 'frame-src', blocked_host: 'player.example' },
        { directive: 'img-src', blocked_host: 'nothing.example' },
      ]);
      expect(evidence).toEqual([
        { directive: 'frame-src', blocked_host: 'player.example', reports: 4, pages: 2, visitors: 2, first_seen: now - 5_000, user_agents: ['UA one', 'UA two'] },
      ]);
      expect(await store.cspSources.visitors(shop)).toBe(4);
      expect(await store.cspSources.evidence(DEFAULT_SITE_KEY, [{ directive: 'frame-src', blocked_host: 'player.example' }])).toEqual([]);
    });

    test('CSP source decisions: recorded, replaced, forgotten with null, none for an unknown project, deleted with their project', async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const project = await store.cspProjects.create({ site_key: shop, name: 'Shop', mode: 'report-only', base_policy: "default-src 'self'" });
      const other = await store.cspProjects.create({ site_key: shop, name: 'Other', mode: 'report-only', base_policy: "default-src 'self'" });
      await store.cspSources.decide(project.id, [
        { directive: 'frame-src', source: 'https://player.example', decision: 'accepted' },
        { directive: 'img-src', source: 'https://inject.example', decision: 'rejected' },
        { directive: 'script-src', source: 'https://ads.example', decision: 'accepted' },
      ]);
      await store.cspSources.decide(project.id, [
        { directive: 'frame-src', source: 'https://player.example', decision: 'rejected' },
        { directive: 'script-src', source: 'https://ads.example', decision: null },
      ]);
      await store.cspSources.decide(other.id, [{ directive: 'img-src', source: 'https://cdn.example', decision: 'accepted' }]);
      await store.cspSources.decide(987_654, [{ directive: 'img-src', source: 'https://cdn.example', decision: 'accepted' }]);
      expect(await store.cspSources.decisions(project.id)).toEqual([
        { directive: 'frame-src', source: 'https://player.example', decision: 'rejected' },
        { directive: 'img-src', source: 'https://inject.example', decision: 'rejected' },
      ]);
      expect(await store.cspSources.decisions(987_654)).toEqual([]);
      await store.cspProjects.delete(project.id);
      expect(await store.cspSources.decisions(project.id)).toEqual([]);
      expect(await store.cspSources.decisions(other.id)).toHaveLength(1);
    });
  });
