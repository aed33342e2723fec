/**
 * Alerts (docs/alerts.md): each site's rules, the outbox the ingest transaction writes a delivery
 * to (one row per alert and channel; `id` the idempotency key), and each dashboard user's choice of
 * alert mail (off until they turn it on), as the SQLite store's. The outbox is read by due time
 * (the delivery's claim) and by site, rule and issue (a cooldown's last alert).
 */
export const ALERTS_MIGRATION = `
  CREATE TABLE alert_rules (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    site_key TEXT NOT NULL REFERENCES sites (site_key),
    kind TEXT NOT NULL,
    channels TEXT NOT NULL,
    cooldown_minutes INTEGER NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX alert_rules_by_site ON alert_rules (site_key);
  CREATE TABLE alert_outbox (
    id TEXT PRIMARY KEY,
    site_key TEXT NOT NULL,
    rule TEXT NOT NULL,
    fingerprint TEXT,
    channel TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    sent_at BIGINT
  );
  CREATE INDEX alert_outbox_due ON alert_outbox (next_attempt_at) WHERE status IN ('pending', 'retrying');
  CREATE INDEX alert_outbox_by_issue ON alert_outbox (site_key, fingerprint, rule, created_at);
  CREATE INDEX alert_outbox_by_site ON alert_outbox (site_key, created_at);
  ALTER TABLE users ADD COLUMN alert_email BOOLEAN NOT NULL DEFAULT false;
`;

/**
 * A rule's parameters (docs/alerts.md, "Rule kinds"): a spike's `window_minutes` and `factor` or
 * `count`, the metric of `vital_poor`, as a JSON object; null for the kinds that take none.
 */
export const ALERT_RULE_PARAMS_MIGRATION = `ALTER TABLE alert_rules ADD COLUMN params TEXT;`;
