import type { StoredCspReport, StoredErrorReport, StoredPerformanceSession } from '../collector/index';
import type { ReportTarget } from './startCollector';

/** The read API's lists (`GET /api/v1/sites/{site_key}/...`) and what each holds. */
export interface StoredRecords {
  'error-reports': StoredErrorReport;
  'csp-reports': StoredCspReport;
  'performance-sessions': StoredPerformanceSession;
}

/** Records per request: the read API's largest page. */
const PAGE_SIZE = 1000;

/**
 * Everything the collector stored for the target's site of one kind, oldest first, read through
 * the read API (so an existing collector is read the same way as the in-process one), every page.
 *
 * @example
 * const errors = await readRecords(target, 'error-reports');
 */
export const readRecords = async <K extends keyof StoredRecords>(target: ReportTarget, kind: K): Promise<Array<StoredRecords[K]>> => {
  const records: Array<StoredRecords[K]> = [];
  for (let cursor: string | null = null; ; ) {
    const url = new URL(`/api/v1/sites/${encodeURIComponent(target.siteKey)}/${kind}`, target.url);
    url.searchParams.set('limit', String(PAGE_SIZE));
    if (target.since !== undefined) url.searchParams.set('since', new Date(target.since).toISOString());
    if (cursor) url.searchParams.set('cursor', cursor);
    const response = await fetch(url, { headers: { authorization: `Bearer ${target.apiKey}` } });
    // One key reads at most a few lists at once (README, "Running it for real"): test workers
    // sharing a collector and a key wait as Retry-After says, then read the same page again.
    if (response.status == 429) {
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
      continue;
    }
    if (!response.ok) {
      throw new Error(`sitebeacon/playwright: reading ${kind} from ${target.url} answered ${response.status}: ${await response.text()}`);
    }
    const page = (await response.json()) as { data: Array<StoredRecords[K]>; next_cursor: string | null };
    records.push(...page.data);
    if (!page.next_cursor) return records;
    cursor = page.next_cursor;
  }
};
