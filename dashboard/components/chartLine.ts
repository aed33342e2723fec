/**
 * One line of a chart: its label, a value per day (null: none that day) and its colour. Its own
 * module because both Chart.tsx and Sparkline.tsx draw it, and Chart.tsx draws a Sparkline: the
 * shape lives below both, so neither imports the other back.
 *
 * @example
 * const errors: Line = { label: 'Errors', values: [3, null, 5], color: '#b42318' };
 */
export interface Line {
  label: string;
  values: Array<number | null>;
  color: string;
}
