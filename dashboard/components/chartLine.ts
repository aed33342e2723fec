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
  /** Dashed (a bucket still filling: docs/issues.md, "The API"): uPlot's dash pattern, in pixels. */
  dash?: number[] | undefined;
}

/** The dash of a bucket still filling (docs/issues.md, "The API": it is not a drop). */
export const FILLING_DASH = [5, 4];

/**
 * A line whose last bucket is still filling, as two: the complete buckets in `line`'s colour,
 * and the segment to the filling one dashed in `lighter`. Unchanged when none is filling.
 *
 * @example
 * withFilling({ label: 'Errors', values: [3, 0, 5], color: '#b42318' }, true, '#e8a39c') // two lines
 */
export const withFilling = (line: Line, filling: boolean, lighter: string): Line[] => {
  const last = line.values.length - 1;
  if (!filling || last < 0) return [line];
  return [
    { ...line, values: line.values.map((value, index) => (index == last ? null : value)) },
    { label: `${line.label} so far`, values: line.values.map((value, index) => (index >= last - 1 ? value : null)), color: lighter, dash: FILLING_DASH },
  ];
};
