import { describe, expect, it } from 'vitest';
import { StartupError } from '../../src/util/startup-error.ts';
import { parseFacts } from '../../src/facts/check.ts';
import sample from '../../src/facts/sample-facts.json' with { type: 'json' };
import { factsRefusal } from '../support/refusals.ts';

function refusal(mutate: (facts: any) => void): string {
  const facts = structuredClone(sample) as any;
  mutate(facts);
  return factsRefusal(facts);
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

  // jsonc-parser finds the position, so every runtime names it (Bun's JSON.parse gives none).
  it.each([
    [
      'an unfinished file',
      '{ "product": ',
      'at line 1, column 14: expected a value (a string, number, object, array, true, false or null).',
    ],
    ['a member name without quotes', '{\n  "product": {\n    name: "x"\n  }\n}', 'at line 3, column 5: unexpected "name".'],
    [
      'a trailing comma',
      '{\n  "resources": [],\n}',
      'at line 3, column 1: expected a member name in double quotes (a comma before "}" is not allowed).',
    ],
    ['a missing comma', '{\n  "a": 1\n  "b": 2\n}', 'at line 3, column 3: expected "," between two entries.'],
    ['a comment', '{ "a": 1 // note\n}', 'at line 1, column 10: comments are not allowed in JSON.'],
    [
      'a tab inside a string',
      '{ "a": "x\ty" }',
      'at line 1, column 8: a control character (such as a tab or line break) must be escaped inside a string.',
    ],
    ['an empty file', '', 'at line 1, column 1: expected a value (a string, number, object, array, true, false or null).'],
  ])('refuses %s as JSON, naming the line and column', (_, text, where) => {
    expect(() => parseFacts('facts.json', text)).toThrow(new StartupError(`Facts file facts.json is not valid JSON ${where}`));
  });

  it('reads a file that starts with a UTF-8 byte order mark', () => {
    expect(parseFacts('facts.json', `\uFEFF${JSON.stringify(sample, null, 2)}`)).toEqual(sample);
  });

  it('accepts a top-level $schema member and does not serve it', () => {
    const text = JSON.stringify({ $schema: 'https://api.example.com/schemas/facts.json', ...sample });
    const facts = parseFacts('facts.json', text);
    expect(facts).toEqual(sample);
    expect(facts).not.toHaveProperty('$schema');
  });

  it.each([
    ['a missing field', (f: any) => delete f.product.reviewedOn, 'product.reviewedOn: required field "reviewedOn" is missing; add it'],
    ['a blank field', (f: any) => (f.product.name = '  '), 'product.name: must not be empty'],
    ['a bad date', (f: any) => (f.product.reviewedOn = '02/11/2026'), 'product.reviewedOn: must be an ISO 8601 date'],
    ['an unknown resource kind', (f: any) => (f.resources[0].kind = 'blog'), 'resources[0].kind'],
    ['a relative URL', (f: any) => (f.resources[1].url = '/docs'), 'resources[1].url: must be an absolute URL'],
    ['a non-web URL', (f: any) => (f.resources[1].url = 'javascript:alert(1)'), 'resources[1].url'],
    ['an empty list', (f: any) => (f.startOptions = []), 'startOptions: must list at least one entry'],
    [
      'an unknown field',
      (f: any) => (f.resources[2].secretNote = 'x'),
      'resources[2].secretNote: unknown field "secretNote"; remove it, or use one of: id, kind, title, url, description',
    ],
    ['a $schema member below the top level', (f: any) => (f.product.$schema = 'x'), 'product.$schema: unknown field "$schema"'],
    [
      'a date that does not exist',
      (f: any) => (f.product.reviewedOn = '2026-02-31'),
      'product.reviewedOn: "2026-02-31" is not a date that exists; give a real calendar date (YYYY-MM-DD)',
    ],
    [
      'February 29 of a common year',
      (f: any) => (f.product.reviewedOn = '2025-02-29'),
      'product.reviewedOn: "2025-02-29" is not a date that exists',
    ],
    [
      'user info in a URL',
      (f: any) => (f.resources[0].url = 'https://admin:pw@www.example.com/'),
      'resources[0].url: URL carries user info',
    ],
    ['a token in a URL', (f: any) => (f.resources[1].url = 'https://docs.example.com/?access_token=abc'), 'query parameter "access_token"'],
    ['a signature in a URL', (f: any) => (f.startOptions[0].url = 'https://docs.example.com/a?X-Amz-Signature=1'), 'startOptions[0].url'],
    ['a session in a URL', (f: any) => (f.resources[3].url = 'https://status.example.org/?SessionId=1'), '"SessionId"'],
    [
      'gallery creation without approval',
      (f: any) => (f.startOptions[3].requiresHumanApproval = false),
      'startOptions[3].requiresHumanApproval: false, but the option performs creating a gallery (product.actionsNeedingApproval[0]), ' +
        "which needs a person's approval; set it to true",
    ],
    [
      "v1's gallery creation without approval, in facts that name no action for it",
      (f: any) => ((f.startOptions[3].requiresHumanApproval = false), delete f.startOptions[3].performs),
      'startOptions[3].requiresHumanApproval: false, but the option performs creating a gallery (createsGallery), which needs a person',
    ],
    [
      'an action that the facts do not list',
      (f: any) => (f.startOptions[1].performs = ['delete-gallery']),
      'startOptions[1].performs[0]: "delete-gallery" is not the id of an action in product.actionsNeedingApproval; ' +
        'use one of: create-gallery, share-capability-link, sign-up',
    ],
    [
      'an unknown field of an action',
      (f: any) => (f.product.actionsNeedingApproval[2].why = 'x'),
      'product.actionsNeedingApproval[2].why: unknown field "why"; remove it, or use one of: id, action, reason',
    ],
    [
      'a blank reason',
      (f: any) => (f.product.actionsNeedingApproval[0].reason = ' '),
      'product.actionsNeedingApproval[0].reason: must not be empty',
    ],
    ['an empty list of private data', (f: any) => (f.product.neverReturned = []), 'product.neverReturned: must list at least one entry'],
    ['an empty performs', (f: any) => (f.startOptions[3].performs = []), 'startOptions[3].performs: must list at least one entry'],
    [
      'two actions with the same id',
      (f: any) => (f.product.actionsNeedingApproval[1].id = 'create-gallery'),
      'product.actionsNeedingApproval[1].id: id "create-gallery" is already used by product.actionsNeedingApproval[0]',
    ],
  ])('refuses %s, naming the field and the fix', (_, mutate, expected) => {
    expect(refusal(mutate)).toContain(expected);
  });

  // The contract's examples ("Surface"): split at _ - . and lower-to-upper changes, then whole words.
  const withParameter = (name: string) => (f: any) => (f.resources[1].url = `https://docs.example.com/search?${name}=1`);

  it.each([
    'access_token',
    'apiKey',
    'X-Amz-Signature',
    'sig',
    'code',
    'auth_code',
    'sessionId',
    'oauthCode',
    'jwt',
    'APIKEY',
    'user.password',
  ])('refuses the query parameter %s as a credential, naming the field', (name) => {
    expect(refusal(withParameter(name))).toContain(`resources[1].url: URL query parameter "${name}" may carry a credential`);
  });

  it.each(['keyword', 'author', 'country_code', 'designer', 'lang', 'page', 'postcode', 'visit_count'])(
    'accepts the ordinary query parameter %s',
    (name) => {
      const facts = structuredClone(sample) as any;
      withParameter(name)(facts);
      expect(parseFacts('facts.json', JSON.stringify(facts)).resources[1]!.url).toContain(`?${name}=1`);
    },
  );

  it('names a misspelt key as written, with the nearest allowed key, and the key it leaves missing', () => {
    const message = refusal((f) => {
      f.product.reviewdOn = f.product.reviewedOn;
      delete f.product.reviewedOn;
    });
    expect(message).toBe(
      'Facts file facts.json was refused:\n' +
        '  product.reviewdOn: unknown field "reviewdOn"; did you mean "reviewedOn"?\n' +
        '  product.reviewedOn: required field "reviewedOn" is missing; add it',
    );
  });

  it('does not suggest a key the object already has', () => {
    expect(refusal((f) => (f.product.nmae = 'x'))).toContain(
      'product.nmae: unknown field "nmae"; remove it, or use one of: name, summary, audiences, capabilities, notOffered, neverReturned, ' +
        'actionsNeedingApproval, privateContract, contact, logo, reviewedOn',
    );
  });

  it('accepts February 29 of a leap year', () => {
    const facts = structuredClone(sample) as any;
    facts.product.reviewedOn = '2028-02-29';
    expect(parseFacts('facts.json', JSON.stringify(facts)).product.reviewedOn).toBe('2028-02-29');
  });

  it('refuses two start options with the same id', () => {
    expect(refusal((f) => (f.startOptions[2].id = f.startOptions[0].id))).toBe(
      'Facts file facts.json was refused:\n' +
        '  startOptions[2].id: id "read-the-docs" is already used by startOptions[0]; give each start option its own "id"',
    );
  });

  it('refuses two resources with the same id, a resource without one being known by its kind', () => {
    const message = refusal((f) => {
      f.resources[3].kind = 'docs';
      f.resources.push({
        id: 'website',
        kind: 'support',
        title: 'Forum',
        url: 'https://forum.example.com/',
        description: 'Questions and answers.',
      });
    });
    expect(message).toBe(
      'Facts file facts.json was refused:\n' +
        '  resources[3]: id "docs" (its kind, as it has no "id") is already used by resources[1]; give each resource its own "id"\n' +
        '  resources[9].id: id "website" is already used by resources[0]; give each resource its own "id"',
    );
  });

  it('accepts two resources of one kind told apart by their ids', () => {
    const facts = structuredClone(sample) as any;
    facts.resources.push({
      id: 'api-docs',
      kind: 'docs',
      title: 'API reference',
      url: 'https://docs.example.com/api',
      description: 'Every endpoint.',
    });
    expect(parseFacts('facts.json', JSON.stringify(facts)).resources).toHaveLength(10);
  });

  it('lists every problem at once', () => {
    const message = refusal((f) => {
      f.resources[0].url = 'https://u:p@www.example.com/';
      f.resources[1].url = 'https://docs.example.com/?key=1';
    });
    expect(message).toContain('resources[0].url');
    expect(message).toContain('resources[1].url');
  });

  it('lists the content problems together with the shape problems', () => {
    const message = refusal((f) => {
      f.product.reviewdOn = f.product.reviewedOn;
      f.resources[1].url = 'https://docs.example.com/?key=1';
    });
    expect(message).toContain('product.reviewdOn: unknown field');
    expect(message).toContain('resources[1].url: URL query parameter "key"');
  });
});

describe('checkFacts: impossible dates and one report', () => {
  it.each([
    ['2026-13-01', ' (there is no month 13)'],
    ['2026-00-10', ' (there is no month 00)'],
    ['2026-01-32', ' (there is no day 32)'],
    ['2026-01-00', ' (there is no day 00)'],
    ['2026-02-31', ''],
  ])('refuses %s by name, in one line, with no trace of the runtime', (date, why) => {
    expect(refusal((f) => (f.product.reviewedOn = date))).toBe(
      'Facts file facts.json was refused:\n' +
        `  product.reviewedOn: "${date}" is not a date that exists${why}; give a real calendar date (YYYY-MM-DD)`,
    );
  });

  it('reports the shape, the ids, the actions and the approval rule of a file together, not in rounds', () => {
    const message = refusal((f) => {
      f.product.reviewedOn = '2026-13-01';
      f.resources[0].kind = 'blog';
      f.startOptions[1].performs = ['delete-gallery'];
      f.startOptions[2].id = 'read-the-docs';
      f.startOptions[3].requiresHumanApproval = false;
      f.startOptions[0].title = 5;
    });
    expect(message.split('\n').slice(1)).toEqual([
      '  product.reviewedOn: "2026-13-01" is not a date that exists (there is no month 13); give a real calendar date (YYYY-MM-DD)',
      '  resources[0].kind: "blog" is not a resource kind; use one of: website, docs, pricing, status, support, terms, privacy, openapi, mcp',
      '  startOptions[0].title: must be a string, not 5',
      '  startOptions[2].id: id "read-the-docs" is already used by startOptions[0]; give each start option its own "id"',
      '  startOptions[1].performs[0]: "delete-gallery" is not the id of an action in product.actionsNeedingApproval; ' +
        'use one of: create-gallery, share-capability-link, sign-up',
      '  startOptions[3].requiresHumanApproval: false, but the option performs creating a gallery (product.actionsNeedingApproval[0]), ' +
        "which needs a person's approval; set it to true",
    ]);
  });

  it('survives values of the wrong type where the rules read them', () => {
    const message = refusal((f) => {
      f.product.actionsNeedingApproval = [null, { id: 3 }];
      f.startOptions[0].performs = [7, 'x'];
      f.startOptions[1] = 'read';
    });
    expect(message).toContain('startOptions[0].performs[1]: "x" is not the id of an action');
    expect(message).toContain('startOptions[1]: must be an object, not "read"');
  });
});

describe('checkFacts: client data is never served', () => {
  it.each([
    [
      'product.summary',
      (f: any) => (f.product.summary = 'Write to jane.doe@studio.example.com for a demo.'),
      '"jane.doe@studio.example.com"',
    ],
    ['resources[4].description', (f: any) => (f.resources[4].description = 'Call +44 20 7946 0958.'), '"+44 20 7946 0958"'],
    ['product.capabilities[1]', (f: any) => (f.product.capabilities[1] = 'Hotline (555) 010-9999'), '"(555) 010-9999"'],
    ['startOptions[0].title', (f: any) => (f.startOptions[0].title = 'Ring 555.010.9999'), '"555.010.9999"'],
  ])('refuses an address or phone number in %s, naming the field and the value', (field, mutate, value) => {
    expect(refusal(mutate)).toMatch(
      new RegExp(`  ${field.replace(/[[\].]/g, '\\$&')}: ${value.replace(/[()+.]/g, '\\$&')} (is an e-mail|looks like a phone)`),
    );
  });

  it.each([
    ['an e-mail address', 'https://www.example.com/support?from=jane%40example.com', '"jane@example.com" is an e-mail address'],
    ['a phone number', 'https://www.example.com/support?callback=%2B15550109999', '"+15550109999" looks like a phone number'],
  ])('refuses %s in a URL query', (_, url, words) => {
    expect(refusal((f) => (f.resources[4].url = url))).toContain(`resources[4].url: in its query ${words}`);
  });

  it('accepts an id or a time written as digits in a URL query', () => {
    const facts = structuredClone(sample) as any;
    facts.resources[1].url = 'https://docs.example.com/guide?v=1700000000&page=2';
    expect(parseFacts('facts.json', JSON.stringify(facts)).resources[1]!.url).toContain('v=1700000000');
  });

  it('refuses a mailto: support link, saying what to do instead', () => {
    expect(refusal((f) => (f.resources[4].url = 'mailto:help@example.com'))).toBe(
      'Facts file facts.json was refused:\n' +
        '  resources[4].url: a mailto: link is not served here; link to a public https contact or support page, and put the ' +
        "product's own public address in product.contact (url, email)",
    );
  });

  it("accepts the product's own public address in product.contact, and serves it", () => {
    const facts = structuredClone(sample) as any;
    facts.product.contact = { url: 'https://www.example.com/support', email: 'support@example.com' };
    expect(parseFacts('facts.json', JSON.stringify(facts)).product.contact).toEqual(facts.product.contact);
  });

  it.each([
    ['an address that is not one', { email: 'support' }, 'product.contact.email: must be an e-mail address such as support@example.com'],
    ['an empty contact', {}, 'product.contact: gives neither "url" nor "email"'],
    ['a phone number', { url: 'https://www.example.com/', phone: '+1 555 010 9999' }, 'product.contact.phone: unknown field "phone"'],
  ])('refuses %s in product.contact', (_, contact, words) => {
    expect(refusal((f) => (f.product.contact = contact))).toContain(words);
  });
});

describe('checkFacts: product.logo', () => {
  const withLogo = (logo: unknown) => {
    const facts = structuredClone(sample) as any;
    facts.product.logo = logo;
    return facts;
  };

  it('accepts an https image URL, with or without its media type and sizes', () => {
    for (const logo of [
      { url: 'https://www.example.com/logo.png', mediaType: 'image/png', sizes: ['512x512'] },
      { url: 'https://www.example.com/logo.svg' },
    ])
      expect(parseFacts('facts.json', JSON.stringify(withLogo(logo))).product.logo).toEqual(logo);
  });

  it.each([
    ['a plain http URL', { url: 'http://www.example.com/logo.png' }, 'product.logo.url: must be an https URL'],
    [
      'a media type that is not an icon',
      { url: 'https://www.example.com/l', mediaType: 'text/html' },
      '"text/html" is not an icon media type; use one of: image/png',
    ],
    ['a size that is not WxH', { url: 'https://www.example.com/l.png', sizes: ['big'] }, 'product.logo.sizes[0]: must be WIDTHxHEIGHT'],
  ])('refuses %s', (_, logo, words) => {
    expect(refusal((f) => (f.product.logo = logo))).toContain(words);
  });
});
