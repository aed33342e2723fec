import { RANGES, type Range } from '../format';

const LABELS: Record<Range, string> = { '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days' };

/**
 * The page's query with another range: the issues' tab, search and filters kept, their page
 * forgotten (a cursor belongs to one range).
 */
const withRange = (range: Range) => {
  const params = new URLSearchParams(location.search);
  params.delete('cursor');
  params.delete('back');
  params.set('range', range);
  return `?${params}`;
};

/**
 * The time range of a page (docs/dashboard.md, "Pages and ranges": 24 h, 7 d, 30 d) as links: each range has its own URL,
 * so it survives a reload and the back button, and works without a pointer. The rest of the
 * page's query (docs/dashboard.md, "Issues") stays.
 *
 * @example
 * <RangePicker current="7d" />
 */
export const RangePicker = ({ current }: { current: Range }) => (
  <nav class="ranges" aria-label="Time range">
    {(Object.keys(RANGES) as Range[]).map((range) => (
      <a href={withRange(range)} aria-current={range == current ? 'page' : undefined} class={range == current ? 'current' : undefined}>
        {LABELS[range]}
      </a>
    ))}
  </nav>
);
