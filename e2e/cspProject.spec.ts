// A CSP project's suggested policy, built from the violations a real Chromium page reported,
// allows exactly what that page needed: served with it, the page violates nothing.
import { expect, test } from './fixtures';

const PAGE = `<!doctype html><title>shop</title>
<script>
  window.violations = [];
  document.addEventListener('securitypolicyviolation', (event) => violations.push(event.effectiveDirective + ' ' + event.blockedURI));
</script>
<img src="https://cdn.example.net/pixel.gif" alt="">
<script>
  try { eval('1 + 1'); } catch (error) {}
  const tag = document.createElement('script');
  tag.src = 'https://ads.example.org/tag.js';
  document.head.append(tag);
</script>`;

test('the suggested policy allows exactly the observed sources: no further violations', async ({ page, pages, collector }) => {
  const siteKey = await collector.addSite(pages.origin);
  const { stdout } = await collector.cli('key', 'create', '--site', siteKey, '--json');
  const apiKey = (JSON.parse(stdout) as { api_key: string }).api_key;
  const api = async (method: string, path: string, body?: object) => {
    const response = await fetch(`${collector.origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body && JSON.stringify(body),
    });
    expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
    return (await response.json()) as Record<string, any>;
  };
  const basePolicy = "default-src 'self'; img-src 'self'; script-src 'self' 'unsafe-inline'";
  const reportUri = `report-uri ${collector.origin}/api/csp-reports/${siteKey}`;

  // 1. The base policy: Chromium reports what it blocks to the collector.
  pages.route('/shop', PAGE, { 'content-security-policy': `${basePolicy}; ${reportUri}` });
  await page.goto(`${pages.origin}/shop`);
  await expect.poll(() => page.evaluate(() => (window as any).violations.length)).toBe(3);
  await expect.poll(() => collector.exported(siteKey, 'csp'), { timeout: 10_000 }).toHaveLength(3);

  // 2. The project's suggestion from those stored reports. Reports are unauthenticated, so it never
  // adds 'unsafe-eval' by itself (docs/hostile-input.md, "Policies widened by reports"): it lists it as withheld, and the owner decides.
  const project = await api('POST', '/api/v1/csp-projects', { site_key: siteKey, name: 'Shop', mode: 'enforce', base_policy: basePolicy });
  const withheld = await api('GET', `/api/v1/csp-projects/${project.id}/suggested-policy`);
  expect(withheld.policy).toBe("default-src 'self'; img-src 'self' https://cdn.example.net; script-src 'self' 'unsafe-inline' https://ads.example.org");
  expect(withheld.withheld).toEqual([
    { directive: 'script-src', source: "'unsafe-eval'", reports: 1, reason: 'unsafe_keyword', guidance: expect.stringContaining('eval()') },
  ]);
  // The owner accepts eval in the base policy; the suggestion then covers all three reports.
  await api('PATCH', `/api/v1/csp-projects/${project.id}`, { base_policy: basePolicy.replace("'unsafe-inline'", "'unsafe-inline' 'unsafe-eval'") });
  const suggestion = await api('GET', `/api/v1/csp-projects/${project.id}/suggested-policy`);
  expect(suggestion.withheld).toEqual([]);
  expect(suggestion.policy).toBe(
    "default-src 'self'; img-src 'self' https://cdn.example.net; script-src 'self' 'unsafe-inline' 'unsafe-eval' https://ads.example.org",
  );
  expect(suggestion.based_on_reports).toBe(3);

  // 3. The page again, under the suggested policy (still reporting to the collector): nothing to report.
  const header = await api('GET', `/api/v1/csp-projects/${project.id}/header?policy=suggested`);
  expect(header.name).toBe('Content-Security-Policy');
  expect(header.value).toContain(suggestion.policy);
  // Over plain HTTP Chromium would hold report-to reports back; report-uri alone reports at once.
  pages.route('/shop', PAGE, { 'content-security-policy': `${suggestion.policy}; ${reportUri}` });
  await page.goto(`${pages.origin}/shop?again`);
  await page.waitForTimeout(2000);
  expect(await page.evaluate(() => (window as any).violations)).toEqual([]);
  expect(await collector.exported(siteKey, 'csp')).toHaveLength(3);
});
