import type { Line } from './chartLine';

const WIDTH = 120;
const HEIGHT = 36;
/** Room for the stroke at the top and bottom. */
const PAD = 2;

/**
 * A table row's trend: its lines as one small SVG, drawn with the row, no axes, cursor or legend.
 * A table of uPlot sparklines was the site page's longest task (every chart set up in one task as
 * its first screen appears, measured by bench/dashboard.mjs); polylines cost next to nothing.
 * `description` is its accessible name, as a chart's.
 *
 * @example
 * <Sparkline description="Occurrences per day: 3, 0, 5" lines={[{ label: 'Occurrences', values: [3, 0, 5], color: '#b42318' }]} />
 */
export const Sparkline = ({ description, lines }: { description: string; lines: Line[] }) => {
  const values = lines.flatMap((line) => line.values.filter((value): value is number => value !== null));
  // From zero, as the full charts' scale (Chart.tsx).
  const low = Math.min(0, ...values);
  const high = Math.max(low + 1e-9, ...values);
  const points = Math.max(...lines.map((line) => line.values.length), 1);
  const x = (index: number) => (points == 1 ? WIDTH / 2 : (index / (points - 1)) * WIDTH);
  const y = (value: number) => HEIGHT - PAD - ((value - low) / (high - low)) * (HEIGHT - 2 * PAD);
  // Days without a value are skipped, the line joining its neighbours (uPlot's spanGaps).
  const path = (line: Line) =>
    line.values.flatMap((value, index) => (value === null ? [] : [`${x(index).toFixed(1)},${y(value).toFixed(1)}`]));
  return (
    <div class="chart chart-small" role="img" aria-label={description}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" height={HEIGHT} preserveAspectRatio="none" aria-hidden="true">
        {lines.map((line) => {
          const coordinates = path(line);
          if (coordinates.length > 1) return <polyline points={coordinates.join(' ')} fill="none" stroke={line.color} stroke-width="1.5" vector-effect="non-scaling-stroke" />;
          if (!coordinates.length) return null;
          const [cx, cy] = coordinates[0]!.split(',');
          return <circle cx={cx} cy={cy} r="1.5" fill={line.color} />;
        })}
      </svg>
    </div>
  );
};
