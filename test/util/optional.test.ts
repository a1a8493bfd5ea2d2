import { describe, expect, it } from 'vitest';
import { importOptional, missingPackages } from '../../src/util/optional.ts';
import { StartupError } from '../../src/util/startup-error.ts';

describe('importOptional', () => {
  it('returns what the import gives when the package is installed', async () => {
    const leven = await importOptional(() => import('leven'), ['leven'], 'a test');
    expect(leven.default('kitten', 'sitting')).toBe(3);
  });

  it('turns a missing package into a StartupError naming every package and the command that installs them', async () => {
    const missing = importOptional(
      () => import('@product-discovery/not-installed' as string),
      ['@product-discovery/not-installed', 'ajv'],
      'product-discovery verify',
    );
    await expect(missing).rejects.toBeInstanceOf(StartupError);
    await expect(missing).rejects.toThrow(
      'product-discovery verify needs @product-discovery/not-installed and ajv, left out of a production install (optional peers):\n' +
        '  npm install @product-discovery/not-installed ajv',
    );
  });

  it('lets any other failure through as it is', async () => {
    const broken = new Error('Cannot find module "./elsewhere" while starting');
    await expect(importOptional(() => Promise.reject(broken), ['@redis/client'], 'REDIS_URL')).rejects.toBe(broken);
    const thrown = new TypeError('boom');
    await expect(importOptional(() => Promise.reject(thrown), ['@redis/client'], 'REDIS_URL')).rejects.toBe(thrown);
  });
});

describe('missingPackages', () => {
  it('names one package without a list', () => {
    expect(missingPackages(['@redis/client'], 'REDIS_URL (the Redis rate-limit store)')).toBe(
      'REDIS_URL (the Redis rate-limit store) needs @redis/client, left out of a production install (optional peers):\n  npm install @redis/client',
    );
  });
});
