const DAY = 86_400_000;

/**
 * The report fields the issues' list filters by, as `issue_day_counts` names them (its `field`),
 * and the `error_reports` column each is: docs/issues.md, "The list at a million reports".
 */
export const ISSUE_DAY_FIELDS = { page: 'page_url', browser: 'browser', os: 'os', device: 'device', release: 'release', environment: 'environment' } as const;

export type IssueDayField = keyof typeof ISSUE_DAY_FIELDS;

export const ISSUE_DAY_FIELD_NAMES = Object.keys(ISSUE_DAY_FIELDS) as IssueDayField[];

/** One report as the per-day counts see it: its day, fingerprint, count, visitor and field values. */
export interface IssueDayReport {
  siteKey: string;
  fingerprint: string;
  day: number;
  count: number;
  visitor: string | null;
  /** The stored value of each field, null where the report has none. */
  values: Record<IssueDayField, string | null>;
}

/** The key and counts of one `issue_day_counts` row; `visitors` only for the issue's own row (field ''). */
export type IssueDayCount = [siteKey: string, field: string, value: string, day: number, fingerprint: string, reports: number, occurrences: number, visitors: number];

/**
 * What one transaction adds to the per-day tables, folded in memory as the per-day error groups are
 * (sqlite/reportWrites.ts, postgres/batch.ts): counts per site, field, value, day and fingerprint,
 * and the (site, fingerprint, day, visitor) keys it saw, each once. Bots' reports are not added:
 * the tables count the reports the list counts by default (docs/issues.md, "Bots").
 *
 * @example
 * const days = new IssueDayDeltas();
 * days.add(report);
 * days.visitorSeen(siteKey, fingerprint, day); // the visitor was new that day: its row's visitors + 1
 */
export class IssueDayDeltas {
  readonly counts = new Map<string, IssueDayCount>();
  readonly visitors = new Map<string, [siteKey: string, fingerprint: string, day: number, visitor: string]>();

  add({ siteKey, fingerprint, day, count, visitor, values }: IssueDayReport) {
    this.bump(siteKey, '', '', day, fingerprint, count);
    for (const field of ISSUE_DAY_FIELD_NAMES) {
      const value = values[field];
      if (value !== null) this.bump(siteKey, field, value, day, fingerprint, count);
    }
    if (visitor !== null) this.visitors.set(`${siteKey}\n${fingerprint}\n${day}\n${visitor}`, [siteKey, fingerprint, day, visitor]);
  }

  /** A visitor new to its issue's day: the issue's row of that day counts one more. */
  visitorSeen(siteKey: string, fingerprint: string, day: number) {
    this.counts.get(`${siteKey}\n\n\n${day}\n${fingerprint}`)![7] += 1;
  }

  /** The rows sorted by key: two PostgreSQL transactions lock them in the same order. */
  sortedCounts() {
    return [...this.counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
  }

  sortedVisitors() {
    return [...this.visitors.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
  }

  private bump(siteKey: string, field: string, value: string, day: number, fingerprint: string, count: number) {
    const key = `${siteKey}\n${field}\n${value}\n${day}\n${fingerprint}`;
    const row = this.counts.get(key);
    if (row) {
      row[5] += 1;
      row[6] += count;
    } else {
      this.counts.set(key, [siteKey, field, value, day, fingerprint, 1, count, 0]);
    }
  }
}

/** A report of a person (not a known bot; a report stored before clients were parsed has a null `bot`), alias `r`. */
const PERSON = '(r.bot IS NULL OR r.bot = 0)';

/**
 * The statements that fill `issue_visitor_days` and `issue_day_counts` from the reports `source`
 * reads (a `FROM ... WHERE ...` whose reports are `r`): the whole tables when a migration adds them,
 * or one issue's day again once retention has deleted some of its reports. The same SQL in both
 * stores (`received_at / DAY` is a whole day in both: an integer column, an integer divisor).
 *
 * @example
 * for (const sql of issueDayFill('FROM error_reports r WHERE 1 = 1')) db.exec(sql);
 */
export const issueDayFill = (source: string) => {
  const day = `r.received_at / ${DAY}`;
  // PostgreSQL groups by no constant: the issue's own rows (field '') are grouped without their value.
  const counts = (field: string, value: string | undefined, visitors: string) => `INSERT INTO issue_day_counts (site_key, field, value, day, fingerprint, reports, occurrences, visitors)
    SELECT r.site_key, '${field}', ${value ?? `''`}, ${day}, r.fingerprint, COUNT(*), SUM(coalesce(r.count, 1)), ${visitors}
    ${source} AND ${PERSON} AND r.fingerprint IS NOT NULL ${value ? `AND ${value} IS NOT NULL` : ''}
    GROUP BY r.site_key, ${value ? `${value}, ` : ''}${day}, r.fingerprint`;
  return [
    `INSERT INTO issue_visitor_days (site_key, fingerprint, day, visitor)
      SELECT DISTINCT r.site_key, r.fingerprint, ${day}, r.visitor ${source} AND ${PERSON} AND r.fingerprint IS NOT NULL AND r.visitor IS NOT NULL`,
    counts('', undefined, 'COUNT(DISTINCT r.visitor)'),
    ...Object.entries(ISSUE_DAY_FIELDS).map(([field, column]) => counts(field, `r.${column}`, '0')),
  ];
};
