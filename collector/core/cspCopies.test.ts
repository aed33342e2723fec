import fc from 'fast-check';
import { expect, test } from 'vitest';
import { awaitedByNewReport, awaitedSideOf, copyToMergeInto, CSP_SOURCES, replacesStoredFields, sourcesWithCopy, violationKeyOf, type CspSource } from './cspCopies';

const violation = {
  report_type: 'csp-violation',
  document_uri: 'https://shop.example/cart?step=2',
  effective_directive: 'img-src',
  blocked_uri: 'https://cdn.example.net/x.png',
  line_number: 9,
  column_number: 27,
};

test('the violation key: same for copies that differ only outside document, directive, blocked URI and position', () => {
  const key = violationKeyOf(violation);
  expect(key).toMatch(/^[0-9a-f]{16}$/);
  expect(violationKeyOf({ ...violation, source_file: 'https://shop.example/cart', status_code: 0, disposition: 'enforce', script_sample: '' })).toBe(key);
  for (const change of [
    { document_uri: 'https://shop.example/cart?step=3' },
    { effective_directive: 'script-src-elem' },
    { blocked_uri: 'https://cdn.example.net/y.png' },
    { line_number: 10 },
    { column_number: 28 },
  ]) {
    expect(violationKeyOf({ ...violation, ...change })).not.toBe(key);
  }
  // Absent and 0 both say "no position".
  const { line_number: _line, column_number: _column, ...unplaced } = violation;
  expect(violationKeyOf(unplaced)).toBe(violationKeyOf({ ...unplaced, line_number: 0, column_number: 0 }));
  // Field boundaries cannot be shifted to forge a collision.
  expect(violationKeyOf({ ...violation, document_uri: 'a', blocked_uri: 'b"c' })).not.toBe(violationKeyOf({ ...violation, document_uri: 'a","b', blocked_uri: 'c' }));
});

test('only CSP violations with a directive have a key', () => {
  expect(violationKeyOf({ report_type: 'deprecation', document_uri: 'https://shop.example/' })).toBeUndefined();
  expect(violationKeyOf({ ...violation, effective_directive: undefined })).toBeUndefined();
});

test('a copy merges into the oldest stored report without a copy from its side', () => {
  const rows = [
    { id: 1, sources: ['beacon', 'report-uri'] },
    { id: 2, sources: ['beacon'] },
    { id: 3, sources: ['report-to'] },
  ];
  expect(copyToMergeInto(rows, 'report-uri')?.id).toBe(2);
  expect(copyToMergeInto(rows, 'report-to')?.id).toBe(2);
  expect(copyToMergeInto(rows, 'beacon')?.id).toBe(3);
  expect(copyToMergeInto([{ id: 1, sources: ['report-uri'] }], 'report-to')).toBeUndefined();
  expect(copyToMergeInto([], 'beacon')).toBeUndefined();
  expect(replacesStoredFields('beacon')).toBe(false);
  expect(replacesStoredFields('report-uri')).toBe(true);
  expect(replacesStoredFields('report-to')).toBe(true);
});

test('any arrival order of N beacon copies and M browser reports of one violation makes max(N, M) reports, none holding two copies from one side', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...CSP_SOURCES), { maxLength: 30 }), (arrivals: CspSource[]) => {
      const rows: Array<{ sources: CspSource[] }> = [];
      for (const source of arrivals) {
        const target = copyToMergeInto(rows, source);
        if (target) target.sources.push(source);
        else rows.push({ sources: [source] });
      }
      const beacon = arrivals.filter((source) => source == 'beacon').length;
      expect(rows).toHaveLength(Math.max(beacon, arrivals.length - beacon));
      for (const { sources } of rows) {
        expect(sources.filter((source) => source == 'beacon').length).toBeLessThanOrEqual(1);
        expect(sources.filter((source) => source != 'beacon').length).toBeLessThanOrEqual(1);
      }
    }),
  );
});

test('a stored report awaits the side it lacks: a new violation with a source awaits the other side, anything else nothing', () => {
  expect(awaitedSideOf(['beacon'])).toBe('browser');
  expect(awaitedSideOf(['report-uri'])).toBe('beacon');
  expect(awaitedSideOf(['report-to', 'beacon'])).toBeUndefined();
  expect(awaitedSideOf([])).toBeUndefined();
  expect(awaitedByNewReport('3f2a9c1b7e0d4a61', 'report-to')).toBe('beacon');
  expect(awaitedByNewReport('3f2a9c1b7e0d4a61', 'beacon')).toBe('browser');
  expect(awaitedByNewReport(undefined, 'beacon')).toBeUndefined();
  expect(awaitedByNewReport('3f2a9c1b7e0d4a61', null)).toBeUndefined();
});

test('a copy merged into a stored report adds its source; the report then awaits nothing', () => {
  expect(sourcesWithCopy(['report-to'], 'beacon')).toEqual({ sources: ['report-to', 'beacon'], awaiting: null });
  expect(sourcesWithCopy(['beacon'], 'report-uri')).toEqual({ sources: ['beacon', 'report-uri'], awaiting: null });
});
