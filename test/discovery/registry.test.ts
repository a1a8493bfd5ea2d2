/**
 * The MCP Registry's server.json for a deployment, valid against the
 * registry's published schema (vendored in test/fixtures, see its README), with one streamable-http
 * remote at {base}/mcp, the package version and the server card's name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { buildServerJson, loopbackWarning, SERVER_JSON_SCHEMA } from '../../src/discovery/registry.ts';
import { serverCardName } from '../../src/discovery/server-card.ts';
import { sampleFacts } from '../support/handler.ts';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'mcp-registry-server.schema.json'), 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

describe('the MCP Registry server.json', () => {
  it('names the schema the fixture is', () => {
    expect(schema.$id).toBe(SERVER_JSON_SCHEMA);
  });

  it.each(['https://api.example.com', 'https://discovery.example.org/base', 'http://127.0.0.1:8080'])(
    'is valid against the registry schema for %s',
    (base) => {
      const document = buildServerJson(base, sampleFacts(), pkg.version);
      expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
      expect(document).toMatchObject({
        $schema: SERVER_JSON_SCHEMA,
        name: serverCardName(base),
        version: pkg.version,
        remotes: [{ type: 'streamable-http', url: `${base}/mcp` }],
      });
    },
  );

  it("carries the facts' logo as its icons, valid against the registry schema, and none without one", () => {
    const facts = sampleFacts();
    facts.product.logo = { url: 'https://www.example.com/logo.svg', mediaType: 'image/svg+xml', sizes: ['any'] };
    const document = buildServerJson('https://api.example.com', facts, pkg.version);
    expect(document.icons).toEqual([{ src: 'https://www.example.com/logo.svg', mimeType: 'image/svg+xml', sizes: ['any'] }]);
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    facts.product.logo = { url: 'https://www.example.com/logo.png' };
    expect(buildServerJson('https://api.example.com', facts, pkg.version).icons).toEqual([{ src: 'https://www.example.com/logo.png' }]);
    expect(buildServerJson('https://api.example.com', sampleFacts(), pkg.version)).not.toHaveProperty('icons');
  });

  it('fails the schema when broken, so the check can fail', () => {
    const document = { ...buildServerJson('https://api.example.com', sampleFacts(), pkg.version), name: 'no slash' };
    expect(validate(document)).toBe(false);
  });
});

describe('loopbackWarning', () => {
  it('warns, in one line, about a base URL that names this machine, and about nothing else', () => {
    for (const base of ['http://localhost:8787', 'http://api.localhost', 'http://127.0.0.1:3000', 'http://[::1]:8080', 'http://0.0.0.0']) {
      const warning = loopbackWarning(base);
      expect(warning, base).toContain(`${base} names this machine`);
      expect(warning).toContain('--base https://api.example.com');
      expect(warning).not.toContain('\n');
    }
    for (const base of ['https://api.example.com', 'https://localhost.example.com', 'http://128.0.0.1'])
      expect(loopbackWarning(base), base).toBeUndefined();
  });
});
