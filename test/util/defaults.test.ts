import { describe, expect, it } from 'vitest';
import { withDefaults } from '../../src/util/defaults.ts';

describe('withDefaults', () => {
  it('keeps a default where the option is left out or undefined, and takes every value given', () => {
    const defaults = { quota: 120, windowSeconds: 60, fail: 'open' };
    expect(withDefaults(defaults, { quota: 5, windowSeconds: undefined })).toEqual({ quota: 5, windowSeconds: 60, fail: 'open' });
    expect(withDefaults(defaults, undefined)).toEqual(defaults);
    expect(withDefaults(defaults, { quota: 0 }).quota, 'a falsy value is still a value').toBe(0);
    expect(defaults.quota, 'the defaults are not changed').toBe(120);
  });
});
