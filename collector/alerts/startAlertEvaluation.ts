import { isSpike, SPIKE_ISSUES_PER_RULE, spikeAlerts, spikeRanges, vitalAlert, vitalRanges } from '../core/alerts/periodic';
import type { RaisedAlert } from '../core/alerts/raised';
import type { IssueLifecycleState } from '../core/issueLifecycle';
import type { Store } from '../store/contract';
import { startPeriodic, type Periodic } from '../store/startPeriodic';

export interface AlertEvaluationOptions {
  /** How often spike rules are looked at (vital_poor rules once an hour within it). */
  intervalMs?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}

/** What one evaluator remembers between runs: the hour its vital_poor rules were last looked at. */
export interface EvaluationState {
  vitalHour?: number | undefined;
}

/**
 * One run of the periodic rules (docs/alerts.md, "Spikes", "Poor vitals") at `now`: every spike
 * rule's window counted and compared (core/alerts/periodic.ts), every vital_poor rule's p75s when
 * the hour has changed since `state.vitalHour`, and what they raise written by the store's `raise`
 * (cooldowns and keys read in its transaction: "Raised from several collectors"). Without such a
 * rule it is one read of the rules. Resolves to the outbox rows written.
 *
 * @example
 * await evaluateAlerts(store, Date.now(), {});
 */
export const evaluateAlerts = async (store: Store, now: number, state: EvaluationState): Promise<number> => {
  const rules = await store.alerts.periodicRules();
  const { hour, current, previous } = vitalRanges(now);
  const vitalsDue = state.vitalHour !== hour;
  const raised: RaisedAlert[] = [];
  for (const rule of rules) {
    const site = { key: rule.site_key, name: rule.site_name };
    if (rule.kind == 'spike' && rule.window_minutes !== undefined) {
      const counts = await store.alerts.spikeCounts(site.key, { ...spikeRanges(rule.window_minutes, now), limit: SPIKE_ISSUES_PER_RULE });
      const spiking = counts.filter(({ occurrences, baseline }) => isSpike(rule, occurrences, baseline));
      const issues = new Map<string, IssueLifecycleState>();
      for (const { fingerprint } of spiking) {
        const issue = await store.issues.get(site.key, fingerprint);
        if (issue) issues.set(fingerprint, issue);
      }
      raised.push(...spikeAlerts({ rule, site, counts: spiking, issues, now }));
    } else if (rule.kind == 'vital_poor' && rule.metric !== undefined && vitalsDue) {
      const [thisDay, dayBefore] = await Promise.all([
        store.alerts.vitalP75(site.key, rule.metric, { since: current[0], until: current[1] }),
        store.alerts.vitalP75(site.key, rule.metric, { since: previous[0], until: previous[1] }),
      ]);
      const alert = vitalAlert({ rule, site, current: thisDay, previous: dayBefore, now });
      if (alert) raised.push(alert);
    }
  }
  const written = await store.alerts.raise(raised);
  state.vitalHour = hour;
  return written;
};

/**
 * `serve`'s periodic alert rules (docs/alerts.md, "Rule kinds"): evaluateAlerts at once and then
 * every `intervalMs` (a minute), on the housekeeping timer (store/startPeriodic.ts). What it
 * writes, the delivery sends (startAlertDelivery.ts). A failed run goes to `onError`; the next runs
 * as planned.
 *
 * @example
 * const evaluation = startAlertEvaluation(store, { onError: console.error });
 * await evaluation.stop();
 */
export const startAlertEvaluation = (store: Store, { intervalMs = 60_000, now = Date.now, onError = () => {} }: AlertEvaluationOptions = {}): Periodic => {
  const state: EvaluationState = {};
  return startPeriodic(() => evaluateAlerts(store, now(), state), { delayMs: () => intervalMs, onError });
};
