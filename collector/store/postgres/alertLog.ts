import type { AlertStore } from '../contract/alerts';
import { UnknownSiteError } from '../unknownSiteError';
import type { Write } from './groupCommit';
import { run } from './rows';

// The site is checked in the INSERT itself: the outbox has no foreign key (a report's rows are written
// under a site the same transaction checked), so a row of no site would otherwise be stored.
const INSERT = `INSERT INTO alert_outbox (id, site_key, rule, fingerprint, channel, payload, status, tries, next_attempt_at, last_error, created_at, sent_at)
  SELECT $1, $2, $3, $4, $5, $6, $7, $8, NULL, $9, $10, $11 WHERE EXISTS (SELECT 1 FROM sites WHERE site_key = $2)`;

/**
 * `logDelivery` in PostgreSQL (store/contract/alerts.ts), as sqlite/alertLog.ts: a delivery tried
 * already (a test) written as it ended, with no due time, so no collector claims it.
 *
 * @example
 * const logDelivery = postgresLogDelivery(write);
 * await logDelivery({ ...row, status: 'sent', tries: 1, sent_at: Date.now() });
 */
export const postgresLogDelivery =
  (write: Write): AlertStore['logDelivery'] =>
  (row) =>
    write({
      run: async (client) => {
        const { rowCount } = await run(client, INSERT, [
          row.id, row.site_key, row.rule, row.fingerprint, JSON.stringify(row.channel), JSON.stringify(row.payload),
          row.status, row.tries, row.last_error, row.created_at, row.sent_at,
        ]);
        if (!rowCount) throw new UnknownSiteError(row.site_key);
      },
    });
