/**
 * /.well-known/security.txt (RFC 9116) through the handler: served only while a security contact is
 * set, with Contact, Expires (a year ahead, renewed by a reload), Canonical and Preferred-Languages;
 * the 404 problem otherwise. A bad contact is refused at start-up, from the environment and as the
 * createHandler option.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/startup/config.ts';
import { StartupError } from '../../src/util/startup-error.ts';
import { BASE, closeHandlers, get, makeHandler, sampleFacts } from '../support/handler.ts';

afterAll(closeHandlers);

const fields = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
  );

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

describe('GET /.well-known/security.txt', () => {
  it('names the contact, an expiry within a year, the canonical URL and English, as text/plain', async () => {
    const before = Date.now();
    const handler = await makeHandler({ securityContact: 'mailto:security@example.com' });
    const answer = await handler(get('/.well-known/security.txt'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=60');
    const found = fields(await answer.text());
    expect(found).toMatchObject({
      Contact: 'mailto:security@example.com',
      Canonical: `${BASE}/.well-known/security.txt`,
      'Preferred-Languages': 'en',
    });
    // RFC 9116 section 2.5.5: less than a year ahead, in RFC 3339 form.
    expect(found.Expires).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const expires = Date.parse(found.Expires!);
    expect(expires).toBeGreaterThan(before + YEAR_MS - 60_000);
    expect(expires).toBeLessThan(Date.now() + YEAR_MS);
  });

  it('renews Expires on a reload', async () => {
    const handler = await makeHandler({ securityContact: 'https://example.com/security' });
    const first = fields(await (await handler(get('/.well-known/security.txt'))).text()).Expires!;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await handler.reload(sampleFacts());
    const second = fields(await (await handler(get('/.well-known/security.txt'))).text()).Expires!;
    expect(Date.parse(second)).toBeGreaterThan(Date.parse(first));
  });

  it('is the 404 problem while no contact is set', async () => {
    const handler = await makeHandler();
    const answer = await handler(get('/.well-known/security.txt'));
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await answer.json()).code).toBe('api_route_not_found');
  });

  it.each(['http://example.com/security', 'security@example.com', 'mailto:', 'ftp://example.com'])(
    'refuses the contact %j, from the environment and as an option',
    async (contact) => {
      expect(() => loadConfig({ SECURITY_CONTACT: contact })).toThrow(/SECURITY_CONTACT=.*must/);
      await expect(makeHandler({ securityContact: contact })).rejects.toThrow(StartupError);
      await expect(makeHandler({ securityContact: contact })).rejects.toThrow(/^Invalid configuration:\n {2}securityContact=/);
    },
  );

  it('takes a mailto: or https: contact from the environment', () => {
    expect(loadConfig({ SECURITY_CONTACT: 'mailto:security@example.com' }).securityContact).toBe('mailto:security@example.com');
    expect(loadConfig({ SECURITY_CONTACT: 'https://example.com/.well-known/security' }).securityContact).toBe(
      'https://example.com/.well-known/security',
    );
    expect(loadConfig({}).securityContact).toBeUndefined();
  });
});
