import { apiPath } from '../collector/routes/apiPath';
import type { ReadApi } from '../collector/routes/apiTypes';
import type { ReportTarget } from './startCollector';

/** The read API's lists (`GET /api/v1/sites/{site_key}/...`) and what each holds, as the route table declares them. */
export type StoredRecords = {
  [Kind in 'error-reports' | 'csp-reports' | 'performance-sessions']: ReadApi[`/api/v1/sites/:site_key/${Kind}`]['answer']['data'][number];
};

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
    const since = target.since === undefined ? undefined : new Date(target.since).toISOString();
    // Any of the three lists (a union, not the generic kind): each takes the same parameters.
    const list: `/api/v1/sites/:site_key/${keyof StoredRecords}` = `/api/v1/sites/:site_key/${kind}`;
    const path = apiPath(list, { site_key: target.siteKey }, { limit: PAGE_SIZE, since, cursor: cursor ?? undefined });
    const url = new URL(path, target.url);
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
