/**
 * The public base URL's one rule (src/contract/base-url.ts), from the environment (PUBLIC_BASE_URL)
 * and from createHandler (`publicBaseUrl`) in the same words, each naming its own setting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { baseUrlProblem, checkBaseUrl } from '../../src/contract/base-url.ts';
import { loadConfig } from '../../src/startup/config.ts';
import { closeHandlers, get, makeHandler } from '../support/handler.ts';
import { environmentRefusal, optionRefusal, problemOf } from '../support/refusals.ts';

afterEach(closeHandlers);

const REFUSED: [string, string, RegExp][] = [
  ['https://user:secret@api.example.com', 'user information', /must not carry user information \(user:password@\)/],
  ['https://token@api.example.com', 'a user name alone', /must not carry user information/],
  [' https://api.example.com', 'a leading space', /must not begin or end with white space/],
  ['https://api.example.com\n', 'a trailing newline', /must not begin or end with white space/],
  ['https://api.example.com/?tenant=a', 'a query', /must not carry a query/],
  ['https://api.example.com/?', 'an empty query', /must not carry a query/],
  ['https://api.example.com/#top', 'a fragment', /must not carry a fragment/],
  ['ftp://api.example.com', 'another scheme', /must use http or https/],
  ['api.example.com', 'no scheme', /must be an absolute URL such as https:\/\/api\.example\.com/],
];

describe('the public base URL', () => {
  it.each(REFUSED)('refuses %j (%s) from the environment and from createHandler in the same words', async (value, _what, words) => {
    const fromEnvironment = problemOf(environmentRefusal({ PUBLIC_BASE_URL: value }), 'PUBLIC_BASE_URL');
    const fromOptions = problemOf(await optionRefusal({ publicBaseUrl: value }), 'publicBaseUrl');
    expect(fromEnvironment).toMatch(words);
    expect(fromOptions).toBe(fromEnvironment);
    expect(baseUrlProblem(value)).toBe(fromEnvironment);
  });

  it('never echoes the user information it refuses', async () => {
    const environment = environmentRefusal({ PUBLIC_BASE_URL: 'https://user:secret@api.example.com' });
    const options = await optionRefusal({ publicBaseUrl: 'https://user:secret@api.example.com' });
    for (const message of [environment, options]) {
      expect(message).not.toContain('secret');
      expect(message).not.toContain('user:secret');
    }
    expect(environment).toContain('PUBLIC_BASE_URL="https://***@api.example.com": must not carry user information');
    expect(options).toContain('publicBaseUrl="https://***@api.example.com": must not carry user information');
  });

  it('drops trailing slashes, one rule for every way in', async () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/' }).publicBaseUrl).toBe('https://api.example.com');
    expect(checkBaseUrl('https://api.example.com/discovery//')).toBe('https://api.example.com/discovery');
    const handler = await makeHandler({ publicBaseUrl: 'https://api.example.com/discovery/' });
    const answer = await handler(get('/api/v1'));
    expect(answer.headers.get('link')).toContain('<https://api.example.com/discovery/openapi.json>');
  });

  it('accepts http and https URLs with a path and a port', () => {
    for (const url of ['http://127.0.0.1:8787', 'https://api.example.com/discovery', 'http://[::1]:8080']) {
      expect(baseUrlProblem(url), url).toBeUndefined();
      expect(checkBaseUrl(url)).toBe(url);
    }
  });

  it('names the setting its caller passes', () => {
    expect(() => checkBaseUrl('https://a@b', 'PUBLIC_BASE_URL')).toThrow(/^Invalid configuration:\n {2}PUBLIC_BASE_URL="https:\/\/\*\*\*@b"/);
    expect(() => checkBaseUrl(42 as unknown as string)).toThrow(/publicBaseUrl=42: must be a string/);
  });
});
