import { apiError } from '../http/apiError';
import type { Metrics } from '../http/metrics';
import { PROMETHEUS_TEXT_TYPE, renderPrometheusText } from '../http/prometheusText';
import { defineRoute, type Route } from '../http/route';

/**
 * `GET /metrics`: this collector process's counters in the Prometheus text format 0.0.4
 * (http/prometheusText.ts; README, "Metrics"). Always served, and only to an installation API key
 * (`sitebeacon key create` without `--site`, sent as `Authorization: Bearer KEY`, which
 * Prometheus's `authorization` scrape setting sends): 401 without one, 403 for a key of one site.
 * Not public, because the counts tell an attacker which load and which faults hurt (refusals,
 * failed writes, a database down, sign-ins refused); not off by default, because then most
 * self-hosted collectors would run without it.
 *
 * @example
 * const routes = [...metricsRoutes({ metrics })];
 */
export const metricsRoutes = ({ metrics }: { metrics: Metrics }): Route[] => [
  defineRoute({
    method: 'GET',
    path: '/metrics',
    tag: 'Operations',
    summary: "This process's metrics in the Prometheus text format 0.0.4 (an installation API key)",
    auth: 'apiKey',
    responses: {
      200: { description: 'Prometheus text exposition format 0.0.4', contentType: 'text/plain; version=0.0.4' },
      403: 'forbidden: an API key of one site; metrics need an installation key',
    },
    async handle({ event, apiKey }) {
      if (apiKey!.site_key !== undefined) {
        throw apiError(403, 'forbidden', 'metrics need an installation API key (sitebeacon key create without --site)');
      }
      const text = renderPrometheusText(await metrics.collect());
      event.res.headers.set('content-type', PROMETHEUS_TEXT_TYPE);
      event.res.headers.set('cache-control', 'no-store');
      return text;
    },
  }),
];
