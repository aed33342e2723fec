import { Chart } from './Chart';
import { formatNumber, metricValue, METRICS, percent } from '../format';
import type { MetricSummary, Vital } from '../../collector/routes/apiTypes';

const RATING_OF = (summary: MetricSummary) => (summary.good >= 0.75 ? 'good' : summary.poor > 0.25 ? 'poor' : 'needs-improvement');
const RATING_TEXT: Record<string, string> = { good: 'Good', 'needs-improvement': 'Needs improvement', poor: 'Poor' };

/**
 * Per Web Vital: the p75 with its rating, the good / needs-improvement / poor shares as a bar and
 * in words, and the daily p75 chart (README, "The dashboard"; docs/grouping.md, "Web Vitals"), from `GET .../vitals`.
 *
 * @example
 * <Vitals vitals={answer.vitals} />
 */
export const Vitals = ({ vitals }: { vitals: Record<string, Vital> }) => (
  <div class="vitals">
    {METRICS.map(([name, title]) => {
      const summary = vitals[name];
      if (!summary) return null;
      const days = summary.daily;
      // The rating of the p75 is the one web-vitals gives the page: good when 75% of visits are good.
      const rating = summary.samples ? RATING_OF(summary) : undefined;
      return (
        <section class="vital" aria-labelledby={`vital-${name}`} data-testid={`vital-${name}`}>
          <h3 id={`vital-${name}`}>
            {name} <span class="muted">{title}</span>
          </h3>
          {summary.samples ? (
            <>
              <p class="p75">
                <span class="label">p75</span> <strong data-testid={`p75-${name}`}>{metricValue(name, summary.p75)}</strong>{' '}
                <span class={`rating ${rating}`}>{RATING_TEXT[rating!]}</span>
                <span class="muted"> · {formatNumber(summary.samples)} samples</span>
              </p>
              <div class="shares" aria-hidden="true">
                <span class="good" style={{ width: percent(summary.good) }} />
                <span class="needs-improvement" style={{ width: percent(summary.needs_improvement) }} />
                <span class="poor" style={{ width: percent(summary.poor) }} />
              </div>
              <p class="muted small">
                Good {percent(summary.good)} · needs improvement {percent(summary.needs_improvement)} · poor {percent(summary.poor)}
              </p>
              <Chart
                description={`${name} p75 per day: ${days.map((day) => `${day.day} ${metricValue(name, day.p75)}`).join(', ')}`}
                days={days.map((day) => day.day)}
                lines={[{ label: `${name} p75`, values: days.map((day) => day.p75), color: '#1f5f99' }]}
                format={(value) => metricValue(name, value)}
              />
            </>
          ) : (
            <p class="muted">No samples in this range.</p>
          )}
        </section>
      );
    })}
  </div>
);
