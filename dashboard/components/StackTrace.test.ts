// @vitest-environment happy-dom
import { h, render } from 'preact';
import { expect, test } from 'vitest';
import type { IssueFrame } from '../../collector/routes/apiTypes';
import { frameGroups, unmappedWords } from './stackFrames';
import { StackTrace } from './StackTrace';

const HOSTILE = { script: '<script>globalThis.pwned = 1</script>', img: '<img src=x onerror="globalThis.pwned = 2">' };

const frame = (fields: Partial<IssueFrame>): IssueFrame => ({
  raw: 'at t (https://shop.example/app.min.js:1:74)',
  file: 'https://shop.example/app.min.js',
  line: 1,
  column: 74,
  function: 't',
  original: null,
  unmapped: 'no_map',
  in_app: true,
  ...fields,
});

const formatTotal = frame({
  unmapped: null,
  original: {
    file: 'src/format.js',
    line: 5,
    column: 11,
    function: 'formatTotal',
    context: { pre: [`// ${HOSTILE.script}`, `// ${HOSTILE.img}`, '  if (!currency) {'], line: "    throw new TypeError('no currency');", post: ['  }', '', '}'] },
  },
});
const library = (name: string) => frame({ function: name, file: 'https://cdn.jsdelivr.net/npm/steps/index.js', in_app: false });
const native = frame({ raw: 'at Array.map (<anonymous>)', file: null, line: null, column: null, function: 'Array.map', in_app: false });
const page = frame({ raw: 'at HTMLButtonElement.<anonymous> (https://shop.example/page.js:4:5)', file: 'https://shop.example/page.js', line: 4, column: 5, function: 'HTMLButtonElement.<anonymous>' });

test("the site's frames each on their own, each run of library frames as one group, in the stack's order", () => {
  expect(frameGroups([formatTotal, library('a'), native, page, library('b')])).toEqual([
    { kind: 'app', frame: formatTotal },
    { kind: 'library', frames: [library('a'), native] },
    { kind: 'app', frame: page },
    { kind: 'library', frames: [library('b')] },
  ]);
  expect(frameGroups([])).toEqual([]);
});

test('each reason a frame is not mapped reads as words; a mapped frame has none', () => {
  expect(unmappedWords({ unmapped: null, file: 'x' }, '1.0')).toBeNull();
  expect(unmappedWords({ unmapped: 'no_release', file: 'x' }, null)).toBe('Not mapped: the report names no release, so no source map could be chosen.');
  expect(unmappedWords({ unmapped: 'no_map', file: 'https://shop.example/a.js' }, '1.4.2')).toBe('Not mapped: no source map for release 1.4.2 and this file.');
  expect(unmappedWords({ unmapped: 'no_map', file: null }, '1.4.2')).toBe('Not mapped: the frame names no file (native or eval code).');
  expect(unmappedWords({ unmapped: 'outside_map', file: 'x' }, '1.0')).toContain('outside the source map');
  expect(unmappedWords({ unmapped: 'map_invalid', file: 'x' }, '1.0')).toBe('Not mapped: the source map for this file is invalid.');
});

test('a mapped frame shows its original function, position and numbered source lines, the failing one marked; libraries folded; the raw stack behind a click; hostile source is text', () => {
  const root = document.createElement('div');
  const stack = `TypeError: no currency\n    ${formatTotal.raw}\n    at Array.map (<anonymous>)`;
  render(h(StackTrace, { frames: [formatTotal, library('runSteps'), native, page], stack, release: '1.4.2' }), root);

  expect(root.querySelector('[data-testid="frames-mapped"]')!.textContent).toBe("1 of 4 frames mapped by release 1.4.2's source maps.");
  const top = root.querySelector('ol.frames > li.frame')!;
  expect(top.querySelector('.frame-head')!.textContent).toBe('formatTotal src/format.js:5:11');
  expect(top.querySelector('.minified')!.textContent).toBe('Minified: https://shop.example/app.min.js:1:74 in t');
  const context = top.querySelector('ol.context')!;
  expect(context.getAttribute('start')).toBe('2');
  expect([...context.querySelectorAll('li')].map((line) => line.querySelector('code')!.textContent)).toEqual([
    `// ${HOSTILE.script}`,
    `// ${HOSTILE.img}`,
    '  if (!currency) {',
    "    throw new TypeError('no currency');",
    '  }',
    '\u00a0',
    '}',
  ]);
  expect(context.querySelector('li.failing')!.textContent).toBe("Failing line:     throw new TypeError('no currency');");
  expect(context.querySelectorAll('li.failing')).toHaveLength(1);
  // The source's markup stays text: no element was made of it, nothing ran.
  expect(root.querySelectorAll('script, img')).toHaveLength(0);
  expect((globalThis as { pwned?: number }).pwned).toBeUndefined();

  // The two library frames in one closed group, the page's own unmapped frame after them, saying why.
  const groups = root.querySelectorAll(':scope > div > ol.frames > li');
  expect([...groups].map((item) => item.className)).toEqual(['frame in-app', 'library-group', 'frame in-app']);
  const folded = groups[1]!.querySelector('details') as HTMLDetailsElement;
  expect(folded.open).toBe(false);
  expect(folded.querySelector('summary')!.textContent).toBe('Show 2 library frames');
  expect([...folded.querySelectorAll('[data-testid="unmapped"]')].map((reason) => reason.textContent)).toEqual([
    'Not mapped: no source map for release 1.4.2 and this file.',
    'Not mapped: the frame names no file (native or eval code).',
  ]);
  expect(groups[2]!.querySelector('.frame-head')!.textContent).toBe('HTMLButtonElement.<anonymous> https://shop.example/page.js:4:5');

  const raw = root.querySelector('details.raw') as HTMLDetailsElement;
  expect(raw.open).toBe(false);
  expect(raw.querySelector('summary')!.textContent).toBe('Raw stack');
  expect(raw.querySelector('pre.stack')!.textContent).toBe(stack);
});

test('without a release every frame says so; a stack of no frame keeps its raw text', () => {
  const root = document.createElement('div');
  render(h(StackTrace, { frames: [frame({ unmapped: 'no_release' })], stack: 'x', release: null }), root);
  expect(root.querySelector('[data-testid="frames-mapped"]')!.textContent).toBe('1 frame; the report names no release, so none is mapped.');
  expect(root.querySelector('[data-testid="unmapped"]')!.textContent).toBe('Not mapped: the report names no release, so no source map could be chosen.');
  render(h(StackTrace, { frames: [], stack: 'garbage', release: '1.0' }), root);
  expect(root.querySelector('ol.frames')).toBeNull();
  expect(root.querySelector('pre.stack')!.textContent).toBe('garbage');
});
