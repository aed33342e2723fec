import { expect, test } from 'vitest';
import { DEVICE_USER_AGENTS } from '../testing/storeContract/vitalsByDevice.contract';
import { useSiteCollector } from '../testing/useSiteCollector';

// `GET /vitals` and `/pages` with `device=` (docs/vitals.md, "By device"), over HTTP: each
// session's device parsed from the user agent and `Sec-CH-UA-Mobile` of its submission.

const shop = 'https://shop.example';
const site = useSiteCollector(shop);

const send = async (device: keyof typeof DEVICE_USER_AGENTS, sessionId: string, page: string, lcp: number) => {
  const { userAgent, hints } = DEVICE_USER_AGENTS[device];
  const session = { session_id: sessionId, page_url: `${shop}${page}`, metrics: { LCP: { value: lcp } } };
  const response = await site.collector.post(`/api/performance-sessions/${site.key}`, session, { origin: shop, 'user-agent': userAgent, ...hints });
  expect(response.status).toBe(202);
};

test('vitals and pages of mobile, tablet and desktop sessions apart; every session without device', async () => {
  await send('mobile', 'm1', '/', 5000);
  await send('mobile', 'm2', '/', 4600);
  await send('mobile', 'm3', '/cart', 3000);
  await send('tablet', 't1', '/', 2400);
  await send('desktop', 'd1', '/', 1200);
  await send('desktop', 'd2', '/cart', 900);
  // A phone's Chromium asking for the desktop site still says `Sec-CH-UA-Mobile: ?1`.
  const desktopSiteOnPhone = { session_id: 'm4', page_url: `${shop}/cart`, metrics: { LCP: { value: 4200 } } };
  const headers = { origin: shop, 'user-agent': DEVICE_USER_AGENTS.desktop.userAgent, 'sec-ch-ua-mobile': '?1' };
  expect((await site.collector.post(`/api/performance-sessions/${site.key}`, desktopSiteOnPhone, headers)).status).toBe(202);

  const all = await site.get(`/api/v1/sites/${site.key}/vitals`);
  expect(all.status).toBe(200);
  expect(all.body).toMatchObject({ device: null, vitals: { LCP: { samples: 7 } } });
  const mobile = await site.get(`/api/v1/sites/${site.key}/vitals?device=mobile`);
  expect(mobile.body).toMatchObject({ device: 'mobile', vitals: { LCP: { samples: 4, p75: 4600, rating: 'poor', poor: 0.75 } } });
  const tablet = await site.get(`/api/v1/sites/${site.key}/vitals?device=tablet`);
  expect(tablet.body).toMatchObject({ device: 'tablet', vitals: { LCP: { samples: 1, p75: 2400, rating: 'good' } } });
  const desktop = await site.get(`/api/v1/sites/${site.key}/vitals?device=desktop`);
  expect(desktop.body).toMatchObject({ device: 'desktop', vitals: { LCP: { samples: 2, p75: 1200, rating: 'good' }, INP: { samples: 0, p75: null } } });

  const pages = await site.get(`/api/v1/sites/${site.key}/pages?device=mobile`);
  expect(pages.body.device).toBe('mobile');
  expect(pages.body.data.map(({ page_url, sessions, metrics }: any) => [page_url, sessions, metrics.LCP.p75])).toEqual([
    [`${shop}/`, 2, 5000],
    [`${shop}/cart`, 2, 4200],
  ]);
  const desktopPages = await site.get(`/api/v1/sites/${site.key}/pages?device=desktop&limit=1`);
  expect(desktopPages.body.data.map(({ page_url, sessions }: any) => [page_url, sessions])).toEqual([[`${shop}/`, 1]]);
  expect((await site.get(`/api/v1/sites/${site.key}/pages`)).body).toMatchObject({ device: null, data: [{ page_url: `${shop}/`, sessions: 4 }, { sessions: 3 }] });
});

test('a device that is not mobile, tablet or desktop is refused with a 400 naming it, before any read', async () => {
  for (const query of ['device=phone', 'device=', 'device=MOBILE', 'device=mobile&device=desktop', `device=${'m'.repeat(5000)}`]) {
    for (const view of ['vitals', 'pages']) {
      const { status, body } = await site.get(`/api/v1/sites/${site.key}/${view}?${query}`);
      expect(status, `${view}?${query.slice(0, 40)}`).toBe(400);
      expect(body.error.code).toBe('bad_request');
      expect(body.error.message).toMatch(/device/);
    }
  }
});
