import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { Line } from './chartLine';
import { Sparkline } from './Sparkline';
import { decimalsOf, formatNumber } from '../format';

/** A day (`2026-06-10`, its UTC midnight) or an hour's ISO time, in seconds. */
const seconds = (day: string) => Date.parse(day.length == 10 ? `${day}T00:00:00Z` : day) / 1000;
const HOUR = 3_600;
const DAY = 86_400;

/**
 * A daily chart drawn by uPlot (docs/dashboard.md, "Pages and ranges": a charting library made for it). Canvas is not read by
 * screen readers, so `description` (a sentence with the figures) is its accessible name; `small`
 * is a table row's sparkline without axes, cursor or legend, drawn as SVG (Sparkline.tsx). `hourly`
 * series (an issue's trend over 48 hours or less, docs/issues.md) give ISO times as `days`.
 *
 * @example
 * <Chart description="Errors per day: 3, 0, 5" days={['2026-06-01', ...]} lines={[{ label: 'Errors', values: [3, 0, 5], color: '#b42318' }]} />
 */
export const Chart = ({
  description,
  days,
  lines,
  small = false,
  hourly = false,
  format,
}: {
  description: string;
  days: string[];
  lines: Line[];
  small?: boolean;
  hourly?: boolean;
  format?: (value: number) => string;
}) => (small ? <Sparkline description={description} lines={days.length ? lines : []} /> : <Plot description={description} days={days} lines={lines} hourly={hourly} format={format} />);

/** The full chart: uPlot on a canvas, with axes in UTC days and a cursor. */
const Plot = ({ description, days, lines, hourly, format }: { description: string; days: string[]; lines: Line[]; hourly: boolean; format?: ((value: number) => string) | undefined }) => {
  const element = useRef<HTMLDivElement>(null);
  const data = JSON.stringify([days, lines, hourly]);
  useEffect(() => {
    const container = element.current;
    if (!container || !days.length) return;
    const height = 180;
    const width = () => Math.max(200, container.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height,
        // One time zone for every reader: the days are UTC days.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        series: [{}, ...lines.map((line) => ({ label: line.label, stroke: line.color, width: 2, spanGaps: true, points: { show: days.length < 40 }, ...(line.dash ? { dash: line.dash } : {}) }))],
        axes: [
          // Daily data: ticks on whole days only, written as UTC dates; hourly data on whole hours, as UTC times.
          {
            stroke: '#444',
            incrs: hourly ? [HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY] : [DAY, 2 * DAY, 7 * DAY, 14 * DAY],
            values: (_plot, ticks, _axis, _space, step) =>
              ticks.map((tick) => {
                const iso = new Date(tick * 1000).toISOString();
                return step < DAY ? iso.slice(11, 16) : iso.slice(5, 10);
              }),
          },
          // Ticks as many decimals as their step has (0.2 → 1), in the dashboard's one number format.
          { stroke: '#444', size: 64, values: (_plot, ticks, _axis, _space, step) => ticks.map((tick) => (format ? format(tick) : formatNumber(tick, decimalsOf(step)))) },
        ],
        cursor: { show: true },
        legend: { show: false },
        // From zero, with headroom; CLS lives below 1, so no fixed minimum height of the scale.
        scales: { x: { time: true }, y: { range: (_plot, min, max) => [Math.min(0, min ?? 0), max != null && max > 0 ? max * 1.15 : 1] } },
      },
      [days.map(seconds), ...lines.map((line) => line.values)] as uPlot.AlignedData,
      container,
    );
    // A ResizeObserver reports the size it starts with too: redrawing at the width drawn would
    // draw every chart twice as the page appears.
    let drawn = plot.width;
    const observer = new ResizeObserver(() => {
      if (width() == drawn) return;
      drawn = width();
      plot.setSize({ width: drawn, height });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [data]);
  return <div class="chart" ref={element} role="img" aria-label={description} />;
};
