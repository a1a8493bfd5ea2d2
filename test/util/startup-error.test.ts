import { describe, expect, it } from 'vitest';
import { invalidConfiguration, settingLine, StartupError } from '../../src/util/startup-error.ts';
import { environmentRefusal } from '../support/refusals.ts';

describe('settingLine', () => {
  it('names the setting and echoes its value as JSON, then says what is wrong', () => {
    expect(settingLine('RATE_LIMIT_QUOTA', 'lots', 'must be a whole number')).toBe('RATE_LIMIT_QUOTA="lots": must be a whole number');
    expect(settingLine('rateLimit.quota', 0, 'must be a whole number')).toBe('rateLimit.quota=0: must be a whole number');
  });

  it("never echoes a URL's user information, in any setting", () => {
    expect(settingLine('X', 'https://user:secret@host/path', 'no')).toBe('X="https://***@host/path": no');
    expect(settingLine('X', 'redis://a:1@h1:6379,rediss://:pw@h2', 'no')).toBe('X="redis://***@h1:6379,rediss://***@h2": no');
    const refused = environmentRefusal({ REDIS_URL: 'http://default:s3cret@10.0.0.1:6379' });
    expect(refused).toContain('REDIS_URL="http://***@10.0.0.1:6379": must start with redis:// or rediss://');
    expect(refused).not.toContain('s3cret');
  });

  it('makes one StartupError of the refused lines', () => {
    const error = invalidConfiguration('A="1": no', 'B="2": no');
    expect(error).toBeInstanceOf(StartupError);
    expect(error.message).toBe('Invalid configuration:\n  A="1": no\n  B="2": no');
  });
});
