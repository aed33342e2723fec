import type { IssueListItem } from '../../collector/routes/apiTypes';
import { formatNumber } from '../format';
import { Sparkline } from './Sparkline';

const COMPLETE = '#b42318';
/** The last bucket, still filling, in a lighter colour: a drop there is not a fall (docs/issues.md, "The API"). */
const FILLING = '#e8a39c';

/** A bucket's start as its label: the hour for hourly buckets, the day for daily ones (UTC). */
export const bucketLabel = (start: string, interval: 'hour' | 'day') => (interval == 'hour' ? `${start.slice(0, 10)} ${start.slice(11, 16)}` : start.slice(0, 10));

/**
 * An issue's trend in a table row: its occurrences per bucket as a sparkline, the complete buckets
 * in one colour and the last one, while it is still filling, in a lighter one.
 *
 * @example
 * <IssueTrend trend={item.trend} />
 */
export const IssueTrend = ({ trend }: { trend: IssueListItem['trend'] }) => {
  const { buckets, interval } = trend;
  const filling = buckets.at(-1)?.incomplete ? buckets.length - 1 : -1;
  const complete = buckets.map((bucket, index) => (index == filling ? null : bucket.count));
  const last = buckets.map((bucket, index) => (filling >= 0 && index >= filling - 1 ? bucket.count : null));
  const per = interval == 'hour' ? 'hour' : 'day';
  const description = `Occurrences per ${per} (UTC): ${buckets.map((bucket) => `${bucketLabel(bucket.start, interval)} ${formatNumber(bucket.count)}${bucket.incomplete ? ' so far' : ''}`).join(', ')}`;
  return (
    <Sparkline
      description={description}
      lines={[
        { label: 'Occurrences', values: complete, color: COMPLETE },
        { label: 'Occurrences so far', values: last, color: FILLING },
      ]}
    />
  );
};
