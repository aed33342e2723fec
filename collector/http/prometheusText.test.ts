import { describe, expect, test } from 'vitest';
import { parsePrometheusText, sampleValue } from '../testing/parsePrometheusText';
import { formatValue, renderPrometheusText, type MetricFamily } from './prometheusText';

describe('renderPrometheusText', () => {
  test('writes HELP and TYPE before the samples, each line ending with a line feed', () => {
    const text = renderPrometheusText([
      { name: 'sitebeacon_write_failures_total', help: 'Store writes that failed.', type: 'counter', samples: [{ value: 2 }] },
      { name: 'sitebeacon_database_up', help: 'Whether the database took the last write.', type: 'gauge', samples: [{ value: 1 }] },
    ]);
    expect(text).toBe(
      '# HELP sitebeacon_write_failures_total Store writes that failed.\n' +
        '# TYPE sitebeacon_write_failures_total counter\n' +
        'sitebeacon_write_failures_total 2\n' +
        '# HELP sitebeacon_database_up Whether the database took the last write.\n' +
        '# TYPE sitebeacon_database_up gauge\n' +
        'sitebeacon_database_up 1\n',
    );
  });

  test('a family without samples still has its HELP and TYPE', () => {
    expect(renderPrometheusText([{ name: 'x_total', help: 'X.', type: 'counter', samples: [] }])).toBe('# HELP x_total X.\n# TYPE x_total counter\n');
  });

  test('labels are written in order and their values escape backslash, double quote and line feed', () => {
    const text = renderPrometheusText([
      { name: 'x_total', help: 'X.', type: 'counter', samples: [{ labels: { kind: 'error', path: 'C:\\dir "a"\nb' }, value: 1 }] },
    ]);
    expect(text.split('\n')[2]).toBe('x_total{kind="error",path="C:\\\\dir \\"a\\"\\nb"} 1');
    expect(parsePrometheusText(text).samples[0]!.labels).toEqual({ kind: 'error', path: 'C:\\dir "a"\nb' });
  });

  test('HELP escapes backslash and line feed, and leaves double quotes', () => {
    const text = renderPrometheusText([{ name: 'x', help: 'a \\ b\n"c"', type: 'gauge', samples: [] }]);
    expect(text.split('\n')[0]).toBe('# HELP x a \\\\ b\\n"c"');
    expect(parsePrometheusText(text).families.get('x')?.help).toBe('a \\ b\n"c"');
  });

  test('values: integers and fractions as numbers, infinities and NaN spelled as Go reads them', () => {
    expect([3, 0.25, 1e-7, Infinity, -Infinity, NaN].map(formatValue)).toEqual(['3', '0.25', '1e-7', '+Inf', '-Inf', 'NaN']);
  });

  test('a histogram has cumulative _bucket lines up to le="+Inf", then _sum and _count', () => {
    const family: MetricFamily = {
      name: 'sitebeacon_commit_seconds',
      help: 'Store write latency.',
      type: 'histogram',
      buckets: [0.005, 0.05, 0.5],
      samples: [{ bucketCounts: [2, 0, 1, 1], sum: 1.75 }],
    };
    expect(renderPrometheusText([family])).toBe(
      '# HELP sitebeacon_commit_seconds Store write latency.\n' +
        '# TYPE sitebeacon_commit_seconds histogram\n' +
        'sitebeacon_commit_seconds_bucket{le="0.005"} 2\n' +
        'sitebeacon_commit_seconds_bucket{le="0.05"} 2\n' +
        'sitebeacon_commit_seconds_bucket{le="0.5"} 3\n' +
        'sitebeacon_commit_seconds_bucket{le="+Inf"} 4\n' +
        'sitebeacon_commit_seconds_sum 1.75\n' +
        'sitebeacon_commit_seconds_count 4\n',
    );
  });

  test("a histogram's own labels come before le", () => {
    const text = renderPrometheusText([
      { name: 'h', help: 'H.', type: 'histogram', buckets: [1], samples: [{ labels: { kind: 'csp' }, bucketCounts: [1, 0], sum: 0.5 }] },
    ]);
    expect(text).toContain('h_bucket{kind="csp",le="1"} 1\nh_bucket{kind="csp",le="+Inf"} 1\nh_sum{kind="csp"} 0.5\nh_count{kind="csp"} 1\n');
    expect(sampleValue(parsePrometheusText(text), 'h_count', { kind: 'csp' })).toBe(1);
  });
});

describe('parsePrometheusText (the test kit that checks the routes)', () => {
  test.each([
    ['a sample before its TYPE', 'x 1\n'],
    ['a missing final line feed', '# TYPE x gauge\nx 1'],
    ['an unescaped quote in a label value', '# TYPE x gauge\nx{a="b"c"} 1\n'],
    ['a value that is no number', '# TYPE x gauge\nx one\n'],
    ['an unknown TYPE', '# TYPE x meter\n'],
  ])('refuses %s', (_name, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});
