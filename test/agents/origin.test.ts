import { describe, expect, it } from 'vitest';
import { originOf } from '../../src/agents/origin.ts';

describe('originOf', () => {
  it('gives the origin of a URI that names nothing more', () => {
    expect(originOf('https://chatgpt.com')).toBe('https://chatgpt.com');
    expect(originOf('https://agent.bot.goog/')).toBe('https://agent.bot.goog');
    expect(originOf('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
  });

  it('refuses a path, a query, a fragment, user information, another scheme or no URL at all', () => {
    for (const uri of [
      'https://a.example/keys',
      'https://a.example/?x=1',
      'https://a.example/#k',
      'https://u:p@a.example',
      'ftp://a.example',
      'a.example',
    ]) {
      expect(originOf(uri), uri).toBeUndefined();
    }
  });
});
