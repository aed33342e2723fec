import { useState } from 'preact/hooks';
import type { IssueEvent } from '../../collector/routes/apiTypes';
import { useApi } from '../api';
import { clip, formatNumber, time } from '../format';
import { issueEventsPath } from '../issueQuery';
import { ErrorCauses } from './ErrorCauses';
import { StackTrace } from './StackTrace';
import { Status } from './Status';

const text = (value: string | null, max = 120) => (value ? clip(value, max) : '–');

const Row = ({ event, latest }: { event: IssueEvent; latest: boolean }) => (
  // One tbody per event: its fields on the first row, its message and stack across the table's
  // width below them, so that source lines have room (docs/dashboard.md, "Issues").
  <tbody class="event">
    <tr>
      <td class="when" data-label="Time">{time(event.received_at)}</td>
      {/* Stored URLs are text, never links: a javascript: URL must not become clickable. */}
      <td class="url" data-label="Page">{text(event.page_url, 200)}</td>
      <td class="token" data-label="Browser">{text(event.browser)}</td>
      <td class="token" data-label="OS">{text(event.os)}</td>
      <td class="token" data-label="Device">{text(event.device)}</td>
      <td class="token release" data-label="Release">{event.release ? <code>{clip(event.release, 40)}</code> : '–'}</td>
      <td class="token" data-label="Environment">{text(event.environment, 40)}</td>
      <td class="num" data-label="Count">{formatNumber(event.count)}</td>
    </tr>
    <tr class="event-detail">
      <td class="message" colSpan={8}>
        <p class="event-message">{clip(event.message, 300)}</p>
        {event.stack ? (
          <details open={latest}>
            <summary>Stack</summary>
            <StackTrace frames={event.frames} stack={event.stack} release={event.release} />
          </details>
        ) : (
          <div class="muted small">No stack</div>
        )}
        <ErrorCauses causes={event.causes} />
      </td>
    </tr>
  </tbody>
);

/**
 * An issue's events, newest first (`GET .../issues/{fingerprint}/events`), a page at a time by
 * cursor: "Older" follows the collector's `next_cursor`, "Newer" goes back the way it came. Each
 * event's stack is folded but the latest's; its time, page, client, release, environment and
 * message show.
 *
 * @example
 * <IssueEvents siteKey="3f2a" fingerprint="9b1c…" version={changes} />
 */
export const IssueEvents = ({ siteKey, fingerprint, version }: { siteKey: string; fingerprint: string; version: number }) => {
  // The cursors of the pages shown before this one; the last is this page's.
  const [cursors, setCursors] = useState<string[]>([]);
  const events = useApi(issueEventsPath(siteKey, fingerprint, cursors.at(-1)), version);
  return (
    <section aria-labelledby="events-title">
      <h2 id="events-title">Events</h2>
      {events.state != 'ready' ? (
        <Status loaded={events} />
      ) : !events.data.items.length ? (
        <p class="muted">No events.</p>
      ) : (
        <div class="scroll">
          <table class="stack events" data-testid="issue-events">
            <thead>
              <tr>
                {['Time', 'Page', 'Browser', 'OS', 'Device', 'Release', 'Environment'].map((name) => (
                  <th scope="col">{name}</th>
                ))}
                <th scope="col" class="num">Count</th>
              </tr>
            </thead>
            {events.data.items.map((event, index) => (
              <Row event={event} latest={index == 0 && !cursors.length} />
            ))}
          </table>
        </div>
      )}
      {events.state == 'ready' && (cursors.length > 0 || events.data.next_cursor) && (
        <nav class="pager" aria-label="Event pages">
          {cursors.length ? (
            <button type="button" class="secondary" onClick={() => setCursors(cursors.slice(0, -1))}>
              ← Newer
            </button>
          ) : (
            <span />
          )}
          <span class="muted">Page {cursors.length + 1}</span>
          {events.data.next_cursor ? (
            <button type="button" class="secondary" onClick={() => setCursors([...cursors, events.data.next_cursor!])}>
              Older →
            </button>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
};
