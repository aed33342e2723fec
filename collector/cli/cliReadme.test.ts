// The README's CLI tables are made from the commands' declarations (cliReadme.ts): this fails when
// the README and the declarations disagree. SITEBEACON_WRITE_README=1 writes the tables into the
// README instead (then review the diff).
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { cliReadme } from './cliReadme';
import { COMMANDS } from './commands';

const README = new URL('../../README.md', import.meta.url);
const BEGIN = '<!-- CLI tables: made from collector/cli/ declarations (cliReadme.ts); cliReadme.test.ts checks them -->\n';
const END = '\n<!-- end of the CLI tables -->';

test("the README's CLI tables are the ones the commands' declarations make", () => {
  const readme = readFileSync(README, 'utf8');
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END, begin);
  expect(begin, 'the README marks where its CLI tables begin').toBeGreaterThan(0);
  expect(end, 'and where they end').toBeGreaterThan(begin);
  const expected = cliReadme(COMMANDS);
  if (process.env.SITEBEACON_WRITE_README) writeFileSync(README, readme.slice(0, begin + BEGIN.length) + expected + readme.slice(end));
  else expect(readme.slice(begin + BEGIN.length, end)).toBe(expected);
});

test('every command and every flag has help, and every serve setting a SITEBEACON_ variable but --json', () => {
  for (const spec of COMMANDS) {
    expect(spec.summary, spec.name.join(' ')).not.toBe('');
    expect(spec.help, spec.name.join(' ')).not.toBe('');
    for (const [name, flag] of Object.entries(spec.flags)) expect(flag.help, `${spec.name.join(' ')} --${name}`).not.toBe('');
  }
  const serve = COMMANDS.find(({ name }) => name.join(' ') == 'serve')!;
  const withoutVariable = Object.entries(serve.flags).filter(([, flag]) => !flag.env).map(([name]) => name);
  expect(withoutVariable).toEqual(['json']);
});
