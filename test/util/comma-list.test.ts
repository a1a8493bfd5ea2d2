/** A comma-separated setting read as its items. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { commaItems, commaList } from '../../src/util/comma-list.ts';

describe('commaList', () => {
  it('trims each item and drops empty ones', () => {
    expect(commaItems(' a, b ,,c,')).toEqual(['a', 'b', 'c']);
    expect(commaItems(' , ')).toEqual([]);
    expect(v.parse(v.pipe(v.string(), commaList()), 'https://a.example, https://b.example')).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });
});
