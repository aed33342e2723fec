/**
 * The Prometheus text exposition format, version 0.0.4 (prometheus.io, "Exposition formats",
 * section "Text-based format"): what `GET /metrics` answers. Pure functions over plain data, so
 * the format is tested alone (prometheusText.test.ts).
 */

/** Label names to values, in the order they are written. */
export type Labels = Record<string, string>;

/** One counter or gauge sample. */
export interface Sample {
  labels?: Labels;
  value: number;
}

/** One histogram's observations: counts per bucket (not cumulative, `buckets`' order, then the ones above the last bound). */
export interface HistogramSample {
  labels?: Labels;
  /** `bucketCounts[i]` observations in (buckets[i-1], buckets[i]]; the last entry counts those above every bound. */
  bucketCounts: number[];
  sum: number;
}

/** A metric family: its name, its `# HELP` text, its `# TYPE`, and its samples. */
export type MetricFamily =
  | { name: string; help: string; type: 'counter' | 'gauge'; samples: Sample[] }
  | { name: string; help: string; type: 'histogram'; buckets: number[]; samples: HistogramSample[] };

/** The media type of the format (section "Basic info"). */
export const PROMETHEUS_TEXT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** HELP text escapes `\` and line feeds (section "Text format details"). */
const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/** Label values escape `\`, `"` and line feeds (section "Text format details"). */
const escapeLabelValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * A sample value as Go's ParseFloat reads it: `+Inf`, `-Inf` and `NaN` spelled so.
 *
 * @example
 * formatValue(Infinity); // "+Inf"
 */
export const formatValue = (value: number) => {
  if (Number.isNaN(value)) return 'NaN';
  if (value == Infinity) return '+Inf';
  if (value == -Infinity) return '-Inf';
  return String(value);
};

const labelText = (labels: Labels | undefined) => {
  const pairs = Object.entries(labels ?? {}).map(([name, value]) => `${name}="${escapeLabelValue(value)}"`);
  return pairs.length ? `{${pairs.join(',')}}` : '';
};

const line = (name: string, labels: Labels | undefined, value: number) => `${name}${labelText(labels)} ${formatValue(value)}\n`;

/**
 * A histogram's lines (section "Histograms and summaries"): one cumulative `_bucket` per bound,
 * labelled `le`, ending with `le="+Inf"` (which equals `_count`), then `_sum` and `_count`.
 */
const histogramLines = (name: string, buckets: number[], sample: HistogramSample) => {
  let cumulative = 0;
  let text = '';
  for (const [index, bound] of [...buckets, Infinity].entries()) {
    cumulative += sample.bucketCounts[index] ?? 0;
    text += line(`${name}_bucket`, { ...sample.labels, le: formatValue(bound) }, cumulative);
  }
  return text + line(`${name}_sum`, sample.labels, sample.sum) + line(`${name}_count`, sample.labels, cumulative);
};

/**
 * Writes metric families in the text format: per family its `# HELP` and `# TYPE` lines, then its
 * samples, each line ending with a line feed (the last one too).
 *
 * @example
 * renderPrometheusText([{ name: 'sitebeacon_write_failures_total', help: 'Store writes that failed.', type: 'counter', samples: [{ value: 2 }] }]);
 * // "# HELP sitebeacon_write_failures_total Store writes that failed.\n# TYPE sitebeacon_write_failures_total counter\nsitebeacon_write_failures_total 2\n"
 */
export const renderPrometheusText = (families: MetricFamily[]): string =>
  families
    .map((family) => {
      const head = `# HELP ${family.name} ${escapeHelp(family.help)}\n# TYPE ${family.name} ${family.type}\n`;
      if (family.type == 'histogram') return head + family.samples.map((sample) => histogramLines(family.name, family.buckets, sample)).join('');
      return head + family.samples.map((sample) => line(family.name, sample.labels, sample.value)).join('');
    })
    .join('');
