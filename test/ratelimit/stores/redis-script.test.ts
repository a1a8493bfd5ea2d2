import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { INCREMENT_WINDOWS_SCRIPT, INCREMENT_WINDOWS_SHA1 } from '../../../src/ratelimit/stores/redis-script.ts';

it('names the counting script by its own SHA-1 (EVALSHA finds it only then)', () => {
  expect(INCREMENT_WINDOWS_SHA1).toBe(createHash('sha1').update(INCREMENT_WINDOWS_SCRIPT).digest('hex'));
});
