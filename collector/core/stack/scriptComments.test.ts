import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { STACK_APP_BUNDLE } from '../../testing/buildStackApp';
import { scriptComments } from './scriptComments';

describe('scriptComments', () => {
  test('the committed rollup bundle names its map and the debug ID its map repeats', () => {
    const comments = scriptComments(readFileSync(join(STACK_APP_BUNDLE, 'app.min.js'), 'utf8'));
    const map = JSON.parse(readFileSync(join(STACK_APP_BUNDLE, 'app.min.js.map'), 'utf8')) as { debugId: string };
    expect(comments).toEqual({ sourceMappingUrl: 'app.min.js.map', debugId: map.debugId });
  });
  test('the last comment wins; the older //@ form is read; a malformed debug ID or URL is none', () => {
    expect(scriptComments('//# sourceMappingURL=old.map\nx()\n//@ sourceMappingURL=new.map')).toEqual({ sourceMappingUrl: 'new.map', debugId: null });
    expect(scriptComments('//# debugId=not-a-uuid\n//# sourceMappingURL=a b.map').debugId).toBeNull();
    expect(scriptComments('//# sourceMappingURL=a b.map').sourceMappingUrl).toBeNull();
    expect(scriptComments('//# debugId=0AE942FD-A409-4FC6-A82C-91EB9FCBBF72').debugId).toBe('0ae942fd-a409-4fc6-a82c-91eb9fcbbf72');
  });
  test('only the end of a large script is read', () => {
    expect(scriptComments(`//# sourceMappingURL=head.map\n${'x'.repeat(100_000)}`).sourceMappingUrl).toBeNull();
  });
});
