import { describe, expect, test } from 'vitest';
import { createMapCache } from './createMapCache';

const map = (source: string) => JSON.stringify({ version: 3, sources: [source], names: [], mappings: 'AAAA' });

describe('createMapCache', () => {
  test('a map is loaded and parsed once per entry; a hit answers the same parsed map', () => {
    const cache = createMapCache({ maxChars: 10_000 });
    let loads = 0;
    const load = () => (loads++, map('a.js'));
    const first = cache.get('r1 a.js', load);
    expect(cache.get('r1 a.js', load)).toBe(first);
    expect(loads).toBe(1);
    expect(typeof first).toBe('object');
  });

  test('past the bound the least recently used maps go, counted by the length of their texts', () => {
    const one = map('a.js').length;
    const cache = createMapCache({ maxChars: one * 2 });
    cache.get('a', () => map('a.js'));
    cache.get('b', () => map('b.js'));
    cache.get('a', () => map('a.js'));
    cache.get('c', () => map('c.js'));
    expect(cache.size()).toEqual({ maps: 2, chars: one * 2 });
    // 'b' was the least recently used when 'c' came; reloading it pushes out 'a', and 'c' stays.
    let reloaded = '';
    cache.get('b', () => ((reloaded += 'b'), map('b.js')));
    cache.get('c', () => ((reloaded += 'c'), map('c.js')));
    cache.get('a', () => ((reloaded += 'a'), map('a.js')));
    expect(reloaded).toBe('ba');
  });

  test('no map is not remembered (a map uploaded later is found); an invalid one is; one larger than the bound is not kept', () => {
    const cache = createMapCache({ maxChars: 100 });
    expect(cache.get('x', () => undefined)).toBe('no_map');
    expect(cache.get('x', () => map('x.js'))).not.toBe('no_map');
    expect(cache.get('bad', () => 'not a map')).toBe('map_invalid');
    expect(cache.get('bad', () => map('now-good.js'))).toBe('map_invalid');
    const big = JSON.stringify({ version: 3, sources: ['x'.repeat(200)], names: [], mappings: 'AAAA' });
    expect(typeof cache.get('big', () => big)).toBe('object');
    expect(cache.size().chars).toBeLessThanOrEqual(100);
  });
});
