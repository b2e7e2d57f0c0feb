import { describe, expect, test } from 'vitest';
import { SizedLru } from '../../src/pool/sized-lru.ts';

describe('SizedLru', () => {
  test('lets the least recently used go first when the sizes exceed the bound', () => {
    const cache = new SizedLru<string, number>(10);
    cache.set('a', 1, 4);
    cache.set('b', 2, 4);
    expect(cache.get('a')).toBe(1); // now b is the least recently used
    cache.set('c', 3, 4);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    // Replacing a key counts its new size only.
    cache.set('a', 4, 6);
    expect([cache.get('a'), cache.get('c')]).toEqual([4, 3]);
  });

  test('a read entry is spared once when its turn comes, then goes like the others unless read again', () => {
    const cache = new SizedLru<string, number>(9);
    for (const [index, key] of ['a', 'b', 'c'].entries()) cache.set(key, index, 3);
    cache.get('a');
    cache.set('d', 3, 3); // b goes: a was read, so it is spared and moves behind d
    cache.set('e', 4, 3); // c goes
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, false]);
    cache.set('f', 5, 3); // d goes
    cache.set('g', 6, 3); // a goes: not read since it was spared
    expect(['a', 'd', 'e', 'f', 'g'].map((key) => cache.has(key))).toEqual([false, false, true, true, true]);
  });

  test('also bounds the number of entries', () => {
    const cache = new SizedLru<number, number>(Number.POSITIVE_INFINITY, 2);
    for (let i = 0; i < 5; i++) cache.set(i, i, 1);
    expect([0, 1, 2, 3, 4].map((i) => cache.get(i))).toEqual([undefined, undefined, undefined, 3, 4]);
  });

  test('deletes a key only while it holds the value named', () => {
    const cache = new SizedLru<string, object>(100);
    const first = {};
    const second = {};
    cache.set('k', first, 1);
    cache.set('k', second, 1);
    cache.delete('k', first);
    expect(cache.get('k')).toBe(second);
    cache.delete('k', second);
    expect(cache.get('k')).toBeUndefined();
  });
});
