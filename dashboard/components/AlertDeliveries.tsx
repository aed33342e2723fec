import type { AlertDelivery } from '../../collector/routes/apiTypes';
import { KIND_LABELS } from '../alertRequests';
import { clip, time } from '../format';

const STATUS_LABELS: Record<AlertDelivery['status'], string> = { pending: 'Pending', sent: 'Sent', retrying: 'Retrying', failed: 'Failed', digested: 'In a digest' };

/**
 * The site's latest deliveries (docs/alerts.md, "The API"), newest first: when, what (a test says
 * so), where, the status (a retry's next try), the tries and the last error.
 *
 * @example
 * <AlertDeliveries deliveries={data} />
 */
export const AlertDeliveries = ({ deliveries }: { deliveries: AlertDelivery[] }) =>
  !deliveries.length ? (
    <p class="muted">No delivery yet.</p>
  ) : (
    <div class="scroll">
      <table class="stack" data-testid="alert-deliveries">
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Alert</th>
            <th scope="col">Channel</th>
            <th scope="col">Status</th>
            <th scope="col" class="num">Tries</th>
            <th scope="col">Last error</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <tr data-testid="alert-delivery">
              <td class="when" data-label="Created">{time(delivery.created_at)}</td>
              <td data-label="Alert">
                <span>
                  {delivery.kind == 'digest' ? 'Digest' : KIND_LABELS[delivery.kind]}
                  {delivery.test && <span class="muted"> (test)</span>}
                </span>
              </td>
              <td class="url" data-label="Channel">
                {clip(delivery.channel.type == 'email' ? `Email ${delivery.channel.to}` : `Webhook ${delivery.channel.url}`, 300)}
              </td>
              <td data-label="Status" class={`delivery-${delivery.status}`}>
                <span>
                  {STATUS_LABELS[delivery.status]}
                  {delivery.status == 'sent' && delivery.sent_at && <span class="muted"> {time(delivery.sent_at)}</span>}
                  {delivery.status == 'retrying' && delivery.next_attempt_at && <span class="muted"> (next {time(delivery.next_attempt_at)})</span>}
                </span>
              </td>
              <td class="num" data-label="Tries">{delivery.tries}</td>
              <td class="message" data-label="Last error">{delivery.last_error ? clip(delivery.last_error, 300) : '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
