import { formatNumber, type Range } from './format';

/** The range before the current one, in words (docs/dashboard.md, "Pages and ranges"). */
export const PREVIOUS: Record<Range, string> = { '24h': 'the previous 24 hours', '7d': 'the previous 7 days', '30d': 'the previous 30 days' };

/**
 * A count's change on the previous range of the same length: `+12%`, `−8%`, `no change`, or, when
 * the previous range had none, `new` (a percentage of nothing is no figure). `direction` says
 * which way it went, for its colour; an increase of errors is bad news, of page views not: the
 * caller decides what it means.
 *
 * @example
 * change(58, 52) // { text: '+12%', direction: 'up' }
 * change(3, 0) // { text: 'new', direction: 'up' }
 */
export const change = (current: number, previous: number): { text: string; direction: 'up' | 'down' | 'same' } => {
  if (current == previous) return { text: 'no change', direction: 'same' };
  if (!previous) return { text: 'new', direction: 'up' };
  const percent = ((current - previous) / previous) * 100;
  // Never "+0%" for a change: below one percent says so.
  const size = Math.abs(percent) < 1 ? '<1' : formatNumber(Math.abs(percent));
  return { text: `${percent > 0 ? '+' : '−'}${size}%`, direction: percent > 0 ? 'up' : 'down' };
};

/**
 * The sentence beside a total: how it compares with the previous range, with that range's figure.
 *
 * @example
 * comparison(58, 52, '24h') // '+12% on the previous 24 hours (52)'
 * comparison(0, 0, '7d') // 'none in the previous 7 days either'
 */
export const comparison = (current: number, previous: number, range: Range) => {
  const { text } = change(current, previous);
  if (!current && !previous) return `none in ${PREVIOUS[range]} either`;
  if (!previous) return `none in ${PREVIOUS[range]}`;
  if (text == 'no change') return `as many as in ${PREVIOUS[range]}`;
  return `${text} on ${PREVIOUS[range]} (${formatNumber(previous)})`;
};
