import type { ReadApi } from '../../collector/routes/apiTypes';
import { change, comparison } from '../compare';
import { formatNumber, type Range } from '../format';
import { Chart } from './Chart';
import { withFilling, type Line } from './chartLine';
import { bucketLabel } from './IssueTrend';

type DailyView = ReadApi['/api/v1/sites/:site_key/daily']['answer'];

/** The totals shown, each with its colour and, while its last bucket fills, a lighter one. */
const KINDS = [
  { key: 'errors', label: 'Errors', one: 'error', many: 'errors', color: '#b42318', filling: '#e8a39c' },
  { key: 'csp', label: 'CSP violations', one: 'CSP violation', many: 'CSP violations', color: '#7a4d00', filling: '#d2b27a' },
  { key: 'page_views', label: 'Page views', one: 'page view', many: 'page views', color: '#1f5f99', filling: '#93b6d8' },
] as const;

/**
 * The chart's points: hourly when the collector sent hours (a range of 48 hours or less), else
 * daily; the last marked while it fills (an hour's `incomplete`; a range's last day always is, the
 * range ending now).
 */
const pointsOf = (view: DailyView) =>
  view.hours
    ? { interval: 'hour' as const, points: view.hours.map((hour) => ({ ...hour, at: hour.hour })) }
    : { interval: 'day' as const, points: view.days.map((day, index) => ({ ...day, at: day.day, incomplete: index == view.days.length - 1 })) };

/**
 * The site page's Activity (docs/dashboard.md, "Pages and ranges"): the range's errors, CSP
 * violations and page views, each with its change on the previous range of the same length, and
 * their chart, per hour over 24 hours and per day beyond, the bucket still filling dashed and lighter.
 *
 * @example
 * <Activity view={daily.data} range="24h" />
 */
export const Activity = ({ view, range }: { view: DailyView; range: Range }) => {
  const { interval, points } = pointsOf(view);
  const filling = points.at(-1)?.incomplete ? points.length - 1 : -1;
  const lines: Line[] = KINDS.flatMap(({ key, label, color, filling: lighter }) => withFilling({ label, values: points.map((point) => point[key]), color }, filling >= 0, lighter));
  const description = `Per ${interval} (UTC): ${points
    .map((point) => `${bucketLabel(point.at, interval)}: ${KINDS.map(({ key, many }) => `${formatNumber(point[key])} ${many}`).join(', ')}${point.incomplete ? ' so far' : ''}`)
    .join('; ')}`;
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <ul class="totals compared" data-testid="activity-totals">
        {KINDS.map(({ key, one, many }) => {
          const [current, previous] = [view.totals[key], view.previous[key]];
          return (
            <li data-testid={`total-${key}`}>
              <span class="figure">
                <strong>{formatNumber(current)}</strong> {current == 1 ? one : many}
              </span>{' '}
              <span class={`change ${change(current, previous).direction}`} data-testid={`previous-${key}`}>
                {comparison(current, previous, range)}
              </span>
            </li>
          );
        })}
      </ul>
      <Chart hourly={interval == 'hour'} description={description} days={points.map((point) => point.at)} lines={lines} />
      <p class="legend small">
        <span class="swatch errors" /> Errors <span class="swatch csp" /> CSP violations <span class="swatch views" /> Page views
        {filling >= 0 && (
          <>
            {' '}
            <span class="swatch filling" /> this {interval}, still filling
          </>
        )}
      </p>
    </section>
  );
};
