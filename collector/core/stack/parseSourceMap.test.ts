import { describe, expect, test } from 'vitest';
import { MAX_MAP_CHARS, parseSourceMap } from './parseSourceMap';
import { parseStack } from './parseStack';
import { symbolicate } from './symbolicate';

/** A one-source map whose first generated segment maps column 0 of line 1 to the source's line 1. */
const mapText = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ version: 3, sources: ['src/a.js'], names: ['main'], sourcesContent: ['one\ntwo\nthree'], mappings: 'AAAAA', ...fields });
const frames = parseStack('at f (https://shop.example/a.js:1:1)\nat g (https://shop.example/a.js:1:5)');
const symbolicated = (text: string) => symbolicate(frames, () => parseSourceMap(text));

describe('parseSourceMap on hostile maps: map_invalid, never a throw out of symbolicate', () => {
  test.each([
    ['not JSON', '{"version":3,'],
    ['JSON null', 'null'],
    ['no mappings', JSON.stringify({ version: 3, sources: [] })],
    ['revision 2', mapText({ version: 2 })],
    ['an index map', JSON.stringify({ version: 3, sections: [] })],
    ['sources not an array', mapText({ sources: 'src/a.js' })],
    ['a character outside base64 in mappings', mapText({ mappings: 'AA!A' })],
    ['a VLQ that decodes below zero', mapText({ mappings: 'ZZZZ' })],
    ['a source index past sources', mapText({ mappings: 'ACAA' })],
    ['a name index past names', mapText({ mappings: 'AAAAC' })],
    ['names that are not strings', mapText({ names: [1] })],
    ['sourcesContent that is no array', mapText({ sourcesContent: 'one' })],
  ])('%s', (_, text) => {
    expect(parseSourceMap(text)).toBe('map_invalid');
    expect(symbolicated(text).map((frame) => frame.unmapped)).toEqual(['map_invalid', 'map_invalid']);
  });

  test('mappings past the size bound are refused before they are decoded', () => {
    const huge = mapText({ mappings: `${'AAAA,'.repeat(MAX_MAP_CHARS / 5)}AAAA` });
    expect(huge.length).toBeGreaterThan(MAX_MAP_CHARS);
    expect(parseSourceMap(huge)).toBe('map_invalid');
    // The refusal is the size's alone, not the text's: a sound map padded to the bound parses, one
    // character more is refused unread. Checked by size, not timed (speed is `npm run bench`'s).
    const sound = mapText({ mappings: 'AAAA' });
    const atBound = sound + ' '.repeat(MAX_MAP_CHARS - sound.length);
    expect(parseSourceMap(atBound)).not.toBe('map_invalid');
    expect(parseSourceMap(`${atBound} `)).toBe('map_invalid');
  });

  test('a sound map decodes; its positions are 1-based as stacks are; the caller\'s call site names the function', () => {
    const [frame] = symbolicated(mapText());
    expect(frame!.original).toEqual({ file: 'src/a.js', line: 1, column: 1, function: 'main', context: { pre: [], line: 'one', post: ['two', 'three'] } });
  });
});

describe('what a map says is inert text', () => {
  test('sources climbing with ../ are shown without them, and nothing is read from them', () => {
    const [frame] = symbolicated(mapText({ sources: ['../../../../etc/passwd'], sourcesContent: null }));
    expect(frame!.original).toMatchObject({ file: 'etc/passwd', context: null });
  });

  test('HTML stays text; control, separator and bidirectional characters become U+FFFD; long lines are cut', () => {
    const content = `<script>alert(1)</script>\u0000\u001b[31m\n\u202eevil\u2028x\n${'x'.repeat(10_000)}`;
    const [frame] = symbolicated(mapText({ sourcesContent: [content], mappings: 'AACAA' }));
    expect(frame!.original!.context).toEqual({
      pre: ['<script>alert(1)</script>\ufffd\ufffd[31m'],
      line: '\ufffdevil\ufffdx',
      post: ['x'.repeat(200)],
    });
  });

  test('a name from the map is bounded and inert too', () => {
    const [frame] = symbolicated(mapText({ names: [`a\u202e${'b'.repeat(1000)}`] }));
    expect(frame!.original!.function).toBe(`a\ufffd${'b'.repeat(198)}`);
  });
});
