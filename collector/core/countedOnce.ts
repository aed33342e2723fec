import { comparable, explainingViolation, type FailedLoad, type Violation } from './cspExplains';

/** A failed load as the activity counts read it: its time, URLs, folded occurrences and whether a known bot sent it. */
export interface CountedLoad extends FailedLoad {
  count: number;
  bot: boolean;
}

/**
 * Where a URL pair is compared: the failed resource (or blocked URI) and its page, as
 * cspExplains.ts compares them; each URL parsed once per call of explainedLoads (a site's blocked
 * URIs and pages repeat: thousands of reports, a few dozen URLs).
 */
const targets = () => {
  const parsed = new Map<string | undefined, string>();
  const of = (url: string | undefined) => {
    let found = parsed.get(url);
    if (found === undefined) parsed.set(url, (found = comparable(url) ?? ''));
    return found;
  };
  return (url: string | undefined, page: string | undefined) => `${of(url)}\n${of(page)}`;
};

/**
 * The failed loads a CSP violation explains (core/cspExplains.ts, the issues' link), among
 * `loads` and `violations` read together: each load is compared with the violations of its URL and
 * page only, so that a read of thousands of each stays linear.
 *
 * @example
 * explainedLoads([{ source_url: 'https://ads.example/a.js', page_url: 'https://shop.example/', received_at: t, count: 1, bot: false }],
 *   [{ report_type: 'csp-violation', effective_directive: 'script-src-elem', blocked_uri: 'https://ads.example/a.js', document_uri: 'https://shop.example/', received_at: t + 1000 }]).length // 1
 */
export const explainedLoads = <L extends CountedLoad>(loads: readonly L[], violations: readonly Violation[]): L[] => {
  const targetOf = targets();
  const byTarget = new Map<string, Violation[]>();
  for (const violation of violations) {
    const target = targetOf(violation.blocked_uri, violation.document_uri);
    const list = byTarget.get(target);
    if (list) list.push(violation);
    else byTarget.set(target, [violation]);
  }
  return loads.filter((load) => {
    const candidates = byTarget.get(targetOf(load.source_url, load.page_url));
    return candidates !== undefined && explainingViolation(load, candidates) !== undefined;
  });
};

/**
 * One event, one count (docs/issues.md, "A resource a CSP blocked"): a resource error that a CSP
 * violation explains is the browser's second word on what the violation already counts, so a
 * total that adds errors and CSP violations counts it once, as the violation. This takes those
 * failed loads out of per-day (`key: 'day'`) or per-hour rows of errors counted from `since`:
 * each explained load received at or after `since` takes one report and its `count` of
 * occurrences from its bucket; a bucket left with no report is dropped. Bots' loads are taken out
 * only when the rows count bots (`withoutBots` false): rows without bots never counted them.
 *
 * @example
 * lessExplainedLoads('day', [{ day: 0, reports: 3, count: 5 }], [{ received_at: 10, count: 2, bot: false }], { since: 0, withoutBots: true })
 * // [{ day: 0, reports: 2, count: 3 }]
 */
export const lessExplainedLoads = <K extends 'day' | 'hour', R extends Record<K, number> & { reports: number; count: number }>(
  key: K,
  rows: readonly R[],
  explained: ReadonlyArray<Pick<CountedLoad, 'received_at' | 'count' | 'bot'>>,
  { since, withoutBots }: { since: number; withoutBots: boolean },
): R[] => {
  const bucket = key == 'day' ? 86_400_000 : 3_600_000;
  const byStart = new Map<number, R>(rows.map((row) => [row[key] as number, { ...row }]));
  for (const load of explained) {
    if (load.received_at < since || (withoutBots && load.bot)) continue;
    const row = byStart.get(Math.floor(load.received_at / bucket) * bucket);
    if (!row) continue;
    row.reports -= 1;
    row.count = Math.max(0, row.count - load.count);
  }
  return [...byStart.values()].filter((row) => row.reports > 0);
};
