import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { STACK_APP_BUNDLE } from '../../testing/buildStackApp';
import { mapDebugId } from './mapDebugId';
import { scriptComments } from './scriptComments';

test("the committed bundle's map names the debug ID its script names", () => {
  const map = readFileSync(join(STACK_APP_BUNDLE, 'app.min.js.map'), 'utf8');
  const script = readFileSync(join(STACK_APP_BUNDLE, 'app.min.js'), 'utf8');
  expect(mapDebugId(map)).toBe(scriptComments(script).debugId);
  expect(mapDebugId(map)).toMatch(/^[0-9a-f-]{36}$/);
});

test('upper case is lowered, debug_id is read, a value that is no UUID or a key inside a string is none', () => {
  expect(mapDebugId('{"debugId": "0AE942FD-A409-4FC6-A82C-91EB9FCBBF72"}')).toBe('0ae942fd-a409-4fc6-a82c-91eb9fcbbf72');
  expect(mapDebugId('{"debug_id":"0ae942fd-a409-4fc6-a82c-91eb9fcbbf72"}')).toBe('0ae942fd-a409-4fc6-a82c-91eb9fcbbf72');
  expect(mapDebugId('{"debugId":"not-a-uuid"}')).toBeNull();
  expect(mapDebugId('{"sourcesContent":["x = {\\"debugId\\": \\"0ae942fd-a409-4fc6-a82c-91eb9fcbbf72\\"}"]}')).toBeNull();
  expect(mapDebugId('{"version":3}')).toBeNull();
});
