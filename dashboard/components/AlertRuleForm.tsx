import { useState } from 'preact/hooks';
import type { AlertRuleInput } from '../../collector/routes/apiTypes';
import { addAlertRule, KIND_LABELS } from '../alertRequests';
import type { ApiFailure } from '../fetchJson';

type Kind = AlertRuleInput['kind'];
const KINDS = Object.keys(KIND_LABELS) as Kind[];
const METRICS = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'];

/**
 * The rule a filled form asks for: its kind's parameters, an email channel and/or a webhook (format,
 * secret), the cooldown. What the form leaves out the collector defaults; what it gets wrong the
 * collector refuses, naming the field.
 */
const ruleOf = (form: FormData): AlertRuleInput => {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const number = (name: string) => (text(name) === '' ? undefined : Number(text(name)));
  const kind = text('kind') as Kind;
  const channels: AlertRuleInput['channels'] = [];
  if (text('email')) channels.push({ type: 'email', to: text('email') });
  if (text('webhook')) {
    const format = text('format') as 'json' | 'slack' | 'discord';
    channels.push({ type: 'webhook', url: text('webhook'), format, ...(text('secret') ? { secret: text('secret') } : {}) });
  }
  const spike = kind == 'spike' ? (text('threshold') == 'factor' ? { window_minutes: number('window'), factor: number('amount') } : { window_minutes: number('window'), count: number('amount') }) : {};
  return { kind, ...spike, ...(kind == 'vital_poor' ? { metric: text('metric') } : {}), channels, cooldown_minutes: number('cooldown') };
};

/**
 * "Add a rule" (docs/alerts.md, "The API"): a kind (with a spike's window and count or factor, a
 * vital's metric), an email address and/or a webhook with its format and secret, the cooldown.
 * POSTed with the session cookie; `onAdded` after the collector stored it, its refusal shown.
 *
 * @example
 * <AlertRuleForm siteKey="3f2a" onAdded={reload} />
 */
export const AlertRuleForm = ({ siteKey, onAdded }: { siteKey: string; onAdded: () => void }) => {
  const [kind, setKind] = useState<Kind>('new_issue');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const rule = ruleOf(new FormData(element));
    if (!rule.channels.length) return setFailure('Give an email address, a webhook URL, or both.');
    setBusy(true);
    setFailure(null);
    try {
      await addAlertRule(siteKey, rule);
      element.reset();
      setKind('new_issue');
      onAdded();
    } catch (error) {
      const refused = error as Partial<ApiFailure>;
      setFailure(`The rule was refused (${refused.status ?? 'network'}): ${refused.message ?? String(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="alert-form" aria-label="Add a rule" onSubmit={submit}>
      <label>
        <span>Alert on</span>
        <select name="kind" value={kind} onChange={(event) => setKind((event.currentTarget as HTMLSelectElement).value as Kind)}>
          {KINDS.map((each) => (
            <option value={each}>{KIND_LABELS[each]}</option>
          ))}
        </select>
      </label>
      {kind == 'spike' && (
        <>
          <label>
            <span>Window (minutes)</span>
            <input name="window" type="number" min={1} max={1440} required defaultValue="10" />
          </label>
          <label>
            <span>Threshold</span>
            <select name="threshold">
              <option value="count">Occurrences in the window</option>
              <option value="factor">Times the usual rate</option>
            </select>
          </label>
          <label>
            <span>Count or factor</span>
            <input name="amount" type="number" min={1} step="any" required defaultValue="50" />
          </label>
        </>
      )}
      {kind == 'vital_poor' && (
        <label>
          <span>Metric</span>
          <select name="metric">
            {METRICS.map((metric) => (
              <option value={metric}>{metric}</option>
            ))}
          </select>
        </label>
      )}
      <label>
        <span>Email to</span>
        <input name="email" type="email" maxLength={254} autocomplete="email" placeholder="owner@shop.example" />
      </label>
      <label class="wide">
        <span>Webhook URL</span>
        <input name="webhook" type="url" maxLength={2048} placeholder="https://hooks.example/sitebeacon" />
      </label>
      <label>
        <span>Webhook format</span>
        <select name="format">
          <option value="json">JSON</option>
          <option value="slack">Slack</option>
          <option value="discord">Discord</option>
        </select>
      </label>
      <label>
        <span>Webhook secret (signs each request)</span>
        <input name="secret" type="password" maxLength={256} autocomplete="new-password" />
      </label>
      <label>
        <span>Cooldown (minutes)</span>
        <input name="cooldown" type="number" min={0} max={525600} defaultValue="60" />
      </label>
      <div class="form-buttons">
        <button type="submit" disabled={busy}>
          Add rule
        </button>
      </div>
      {failure && (
        <p class="error small wide" role="alert">
          {failure}
        </p>
      )}
    </form>
  );
};
