import type { Page } from '@playwright/test';

/**
 * Clicks the playground's `#slow` button (a 120 ms handler, pages/playground.js) and returns once
 * web-vitals has taken the interaction into INP. web-vitals handles Event Timing entries in an idle
 * callback (at most a second later, or at once on hide); leaving the page while that callback still
 * waits loses the interaction (a fixed wait of a second raced it). So: wait until an observer of the
 * page's own sees this click's entry, then for an idle callback asked for after web-vitals' own.
 */
export const slowClick = async (page: Page) => {
  const since = await page.evaluate(() => performance.now());
  await page.click('#slow');
  await interactionHandled(page, since);
};

/**
 * Resolves once an interaction of 100 ms or more that started after `since` (page time) has been
 * delivered to the page's observers and an idle period has passed: web-vitals, registered earlier,
 * was given the entry first and has handled it by then (beacon.vitals.js included, registered late
 * with `buffered: true`).
 */
export const interactionHandled = (page: Page, since: number) =>
  page.evaluate(
    (since) =>
      new Promise<void>((resolve) => {
        const observer = new PerformanceObserver((list) => {
          if (!list.getEntries().some((entry) => entry.startTime >= since && entry.duration >= 100)) return;
          observer.disconnect();
          // With web-vitals' own timeout: a page with nothing to paint (headless) may not go idle,
          // and then both callbacks run when their timeouts end, web-vitals' (asked for first) first.
          requestIdleCallback(() => resolve(), { timeout: 1000 });
        });
        observer.observe({ type: 'event', buffered: true, durationThreshold: 16 } as PerformanceObserverInit);
      }),
    since,
  );
