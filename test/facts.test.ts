import { describe, expect, it } from 'vitest';
import { StartupError } from '../src/startup-error.ts';
import { parseFacts } from '../src/facts.ts';
import sample from '../src/sample-facts.json' with { type: 'json' };

function refusal(mutate: (facts: any) => void): string {
  const facts = structuredClone(sample) as any;
  mutate(facts);
  try {
    parseFacts('facts.json', JSON.stringify(facts));
  } catch (error) {
    expect(error).toBeInstanceOf(StartupError);
    return (error as Error).message;
  }
  throw new Error('the facts were accepted');
}

describe('parseFacts', () => {
  it('accepts the shipped sample unchanged', () => {
    expect(parseFacts('sample', JSON.stringify(sample))).toEqual(sample);
  });

  it('uses example.com and example.org addresses only in the sample', () => {
    const urls = JSON.stringify(sample).match(/https?:\/\/[^"]+/g)!;
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) expect(new URL(url).hostname).toMatch(/(^|\.)example\.(com|org)$/);
  });

  it('refuses invalid JSON', () => {
    expect(() => parseFacts('facts.json', '{ "product": ')).toThrow(/facts.json is not valid JSON/);
  });

  it.each([
    ['a missing field', (f: any) => delete f.product.reviewedOn, 'product.reviewedOn'],
    ['a blank field', (f: any) => (f.product.name = '  '), 'product.name: must not be empty'],
    ['a bad date', (f: any) => (f.product.reviewedOn = '02/11/2026'), 'product.reviewedOn: must be an ISO 8601 date'],
    ['an unknown resource kind', (f: any) => (f.resources[0].kind = 'blog'), 'resources.0.kind'],
    ['a relative URL', (f: any) => (f.resources[1].url = '/docs'), 'resources.1.url: must be an absolute URL'],
    ['a non-web URL', (f: any) => (f.resources[1].url = 'javascript:alert(1)'), 'resources.1.url'],
    ['an empty list', (f: any) => (f.startOptions = []), 'startOptions: must list at least one entry'],
    ['an unknown field', (f: any) => (f.resources[2].secretNote = 'x'), 'resources[2].secretNote: unknown field'],
    ['user info in a URL', (f: any) => (f.resources[0].url = 'https://admin:pw@www.example.com/'), 'resources[0].url: URL carries user info'],
    ['a token in a URL', (f: any) => (f.resources[1].url = 'https://docs.example.com/?access_token=abc'), 'query parameter "access_token"'],
    ['a signature in a URL', (f: any) => (f.startOptions[0].url = 'https://docs.example.com/a?X-Amz-Signature=1'), 'startOptions[0].url'],
    ['a session in a URL', (f: any) => (f.resources[3].url = 'https://status.example.org/?SessionId=1'), '"SessionId"'],
    [
      'gallery creation without approval',
      (f: any) => (f.startOptions[3].requiresHumanApproval = false),
      "startOptions[3].requiresHumanApproval: creating a gallery always needs a person's approval",
    ],
  ])('refuses %s, naming the field and the fix', (_, mutate, expected) => {
    expect(refusal(mutate)).toContain(expected);
  });

  // The contract's examples ("Surface"): split at _ - . and lower-to-upper changes, then whole words.
  const withParameter = (name: string) => (f: any) => (f.resources[1].url = `https://docs.example.com/search?${name}=1`);

  it.each(['access_token', 'apiKey', 'X-Amz-Signature', 'sig', 'code', 'auth_code', 'sessionId', 'oauthCode', 'jwt', 'APIKEY', 'user.password'])(
    'refuses the query parameter %s as a credential, naming the field',
    (name) => {
      expect(refusal(withParameter(name))).toContain(`resources[1].url: URL query parameter "${name}" may carry a credential`);
    },
  );

  it.each(['keyword', 'author', 'country_code', 'designer', 'lang', 'page', 'postcode', 'visit_count'])(
    'accepts the ordinary query parameter %s',
    (name) => {
      const facts = structuredClone(sample) as any;
      withParameter(name)(facts);
      expect(parseFacts('facts.json', JSON.stringify(facts)).resources[1]!.url).toContain(`?${name}=1`);
    },
  );

  it('lists every problem at once', () => {
    const message = refusal((f) => {
      f.resources[0].url = 'https://u:p@www.example.com/';
      f.resources[1].url = 'https://docs.example.com/?key=1';
    });
    expect(message).toContain('resources[0].url');
    expect(message).toContain('resources[1].url');
  });
});
