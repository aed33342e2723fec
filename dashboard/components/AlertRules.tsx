import { useState } from 'preact/hooks';
import type { AlertRule, AlertTest } from '../../collector/routes/apiTypes';
import { removeAlertRule, ruleLabel, testAlertRule } from '../alertRequests';
import type { ApiFailure } from '../fetchJson';
import { clip } from '../format';

const channelText = (channel: AlertRule['channels'][number] | AlertTest['deliveries'][number]['channel']) =>
  channel.type == 'email' ? `Email ${channel.to}` : `Webhook ${channel.url}`;

const refusal = (error: unknown) => {
  const refused = error as Partial<ApiFailure>;
  return `Refused (${refused.status ?? 'network'}): ${refused.message ?? String(error)}`;
};

/**
 * One rule's row: its kind, channels (a webhook's format and whether it is signed) and cooldown,
 * with "Send a test" (each channel's outcome shown under the rule) and "Remove". `onChanged` after
 * either, so the page reads the rules and deliveries again.
 */
const RuleRow = ({ siteKey, rule, onChanged }: { siteKey: string; rule: AlertRule; onChanged: () => void }) => {
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<AlertTest | string | null>(null);
  const label = `${ruleLabel(rule)} rule ${rule.id}`;
  const run = async (doing: string, work: () => Promise<void>) => {
    setBusy(doing);
    try {
      await work();
    } catch (error) {
      setOutcome(refusal(error));
    } finally {
      setBusy(null);
    }
  };
  const sendTest = () =>
    run('Sending a test…', async () => {
      setOutcome(null);
      setOutcome(await testAlertRule(siteKey, rule.id));
      onChanged();
    });
  const remove = () =>
    run('Removing…', async () => {
      await removeAlertRule(siteKey, rule.id);
      onChanged();
    });
  return (
    <tr data-testid={`alert-rule-${rule.id}`}>
      <td data-label="Alert on">{ruleLabel(rule)}</td>
      <td data-label="Channels">
        <ul class="channels">
          {rule.channels.map((channel) => (
            <li class="url">
              {clip(channelText(channel), 300)}
              {channel.type == 'webhook' && <span class="muted"> ({channel.format}{channel.signed ? ', signed' : ', unsigned'})</span>}
            </li>
          ))}
        </ul>
      </td>
      <td data-label="Cooldown" class="num">
        {rule.cooldown_minutes} min
      </td>
      <td data-label="Actions">
        <div>
          <div class="actions">
            <button type="button" class="secondary" disabled={busy !== null} aria-label={`Send a test of ${label}`} onClick={sendTest}>
              Send a test
            </button>
            <button type="button" class="secondary" disabled={busy !== null} aria-label={`Remove ${label}`} onClick={remove}>
              Remove
            </button>
          </div>
          {busy && (
            <p class="muted small" role="status">
              {busy}
            </p>
          )}
          {typeof outcome == 'string' && (
            <p class="error small" role="alert">
              {outcome}
            </p>
          )}
          {outcome && typeof outcome != 'string' && (
            <ul class="test-outcome small" role="status" aria-label={`Test of ${label}`}>
              {outcome.deliveries.map((delivery) => (
                <li class={delivery.status == 'sent' ? 'sent' : 'failed'}>
                  {delivery.status == 'sent' ? 'Sent' : 'Failed'}: {clip(channelText(delivery.channel), 200)}
                  {delivery.error && ` — ${clip(delivery.error, 300)}`}
                </li>
              ))}
            </ul>
          )}
        </div>
      </td>
    </tr>
  );
};

/**
 * The site's rules (docs/alerts.md, "Rules"), a card per rule on a phone.
 *
 * @example
 * <AlertRules siteKey="3f2a" rules={rules} onChanged={reload} />
 */
export const AlertRules = ({ siteKey, rules, onChanged }: { siteKey: string; rules: AlertRule[]; onChanged: () => void }) =>
  !rules.length ? (
    <p class="muted">No rule yet: add one below.</p>
  ) : (
    <div class="scroll">
      <table class="stack alert-rules" data-testid="alert-rules">
        <thead>
          <tr>
            <th scope="col">Alert on</th>
            <th scope="col">Channels</th>
            <th scope="col" class="num">Cooldown</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {rules.map((rule) => (
            <RuleRow key={rule.id} siteKey={siteKey} rule={rule} onChanged={onChanged} />
          ))}
        </tbody>
      </table>
    </div>
  );
