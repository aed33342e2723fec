import { RANGES, type Range } from '../format';

const LABELS: Record<Range, string> = { '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days' };

/**
 * The time range of a page (docs/dashboard.md, "Pages and ranges": 24 h, 7 d, 30 d) as links: each range has its own URL,
 * so it survives a reload and the back button, and works without a pointer.
 *
 * @example
 * <RangePicker current="7d" />
 */
export const RangePicker = ({ current }: { current: Range }) => (
  <nav class="ranges" aria-label="Time range">
    {(Object.keys(RANGES) as Range[]).map((range) => (
      <a href={`?range=${range}`} aria-current={range == current ? 'page' : undefined} class={range == current ? 'current' : undefined}>
        {LABELS[range]}
      </a>
    ))}
  </nav>
);
