// The tag `sitebeacon snippet` generates (README, "The collector") carries the beacon's SRI hash: Chromium loads the
// beacon through it and the page's error is stored; a tag whose hash does not match loads nothing.
import { expect, test } from './fixtures';

test('the generated tag with its integrity hash loads the beacon, and a wrong hash is refused by the browser', async ({ page, pages, collector }) => {
  const siteKey = await collector.addSite(pages.origin);
  const { stdout } = await collector.cli('snippet', '--site', siteKey, '--public-url', collector.origin, '--json');
  const setup = JSON.parse(stdout) as { snippet: string; integrity: string };
  expect(setup.snippet).toContain(`integrity="${setup.integrity}"`);
  const throwing = (tag: string) => `<!doctype html><title>sri</title>${tag}
<script>setTimeout(() => { throw new Error('thrown under SRI') }, 300)</script>`;

  pages.route('/tampered', throwing(setup.snippet.replace(setup.integrity, `sha384-${'A'.repeat(64)}`)));
  const refused = page.waitForEvent('console', (message) => /integrity/i.test(message.text()));
  await page.goto(`${pages.origin}/tampered`);
  await refused;
  expect(await page.evaluate(() => 'sitebeacon' in window)).toBe(false);

  pages.route('/sri', throwing(setup.snippet));
  await page.goto(`${pages.origin}/sri`);
  await page.waitForFunction(() => 'sitebeacon' in window);
  await expect.poll(() => collector.exported(siteKey, 'errors'), { timeout: 10_000 }).toHaveLength(1);
  expect((await collector.exported(siteKey, 'errors'))[0]).toMatchObject({ error_message: 'thrown under SRI', page_url: `${pages.origin}/sri` });
});
