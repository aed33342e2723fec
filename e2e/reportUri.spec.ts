// Reports the browser itself sends, not the beacon: CSP `report-uri` (reportingApi.spec.ts has
// the Reporting API).
import { expect, test } from './fixtures';

test('a violation sent by Chromium to report-uri (application/csp-report) is stored', async ({ page, pages, collector }) => {
  const siteKey = await collector.addSite(pages.origin);
  pages.route('/legacy', `<!doctype html><p>legacy</p><img src="https://cdn.example.net/pixel.gif">`, {
    'content-security-policy': `default-src 'self'; img-src 'self'; report-uri ${collector.origin}/api/csp-reports/${siteKey}`,
  });
  await page.goto(`${pages.origin}/legacy?step=2#top`);
  await expect.poll(() => collector.exported(siteKey, 'csp'), { timeout: 10_000 }).toHaveLength(1);
  expect((await collector.exported(siteKey, 'csp'))[0]).toMatchObject({
    report_type: 'csp-violation',
    document_uri: `${pages.origin}/legacy?step=2`,
    effective_directive: 'img-src',
    blocked_uri: 'https://cdn.example.net/pixel.gif',
    disposition: 'enforce',
    user_agent: expect.stringContaining('Chrome'),
  });
});
