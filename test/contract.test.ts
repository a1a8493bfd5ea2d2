import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ANSWERS_SNAPSHOT, currentAnswers, notAdditive } from './support/answers.ts';
import { breakingChanges } from './support/breaking-changes.ts';
import { currentDocument, SNAPSHOT } from './support/contract.ts';

const snapshot = async () => JSON.parse(await readFile(SNAPSHOT, 'utf8'));

describe('the v1 contract freeze', () => {
  it('finds no backward-incompatible change from the committed snapshot', async () => {
    expect(breakingChanges(await snapshot(), await currentDocument())).toEqual([]);
  });
});

describe('the v1 answers for the sample facts', () => {
  it('change only by adding: the REST JSON bodies and the MCP results', async () => {
    const before = JSON.parse(await readFile(ANSWERS_SNAPSHOT, 'utf8'));
    const after = await currentAnswers();
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(notAdditive(before, after)).toEqual([]);
  });

  it.each([
    ['a removed member', { a: 1, b: 2 }, { a: 1 }, ['.b: removed']],
    ['a changed value', { a: [{ b: true }] }, { a: [{ b: false }] }, ['a[0].b: true became false']],
    ['a removed name of a list', { required: ['a', 'b'] }, { required: ['b', 'c'] }, ['required: entry "a" removed']],
    ['a removed line of a text', { text: '# T\n\n- a\n- b\n' }, { text: '# T\n\n- b\n- c\n' }, ['text: line "- a" removed or changed']],
    ['a changed structured text', { text: '{"a":1}' }, { text: '{"a":2,"b":3}' }, ['text(json).a: 1 became 2']],
  ])('finds %s', (_, before, after, expected) => {
    expect(notAdditive(before, after)).toEqual(expected);
  });

  it('passes added members, names, lines and words at the end of a line, and reworded prose', () => {
    expect(
      notAdditive(
        { a: 1, required: ['a'], text: '# T\n- a\n- b', description: 'Creates a gallery.', list: [{ x: 1 }] },
        {
          a: 1,
          b: 2,
          required: ['a', 'b'],
          text: '# T\n- a, because\n- new\n- b',
          description: 'Starts a product.',
          list: [{ x: 1, y: 2 }, { x: 3 }],
        },
      ),
    ).toEqual([]);
  });
});

describe('breakingChanges', () => {
  it('passes an identical document', async () => {
    const doc = await snapshot();
    expect(breakingChanges(doc, structuredClone(doc))).toEqual([]);
  });

  it('passes an added optional response field, path and enum value', async () => {
    const before = await snapshot();
    const after = structuredClone(before);
    after.components.schemas.ProductFacts.properties.tagline = { type: 'string' };
    after.components.schemas.Resource.properties.kind.enum.push('blog');
    after.paths['/api/v1/changelog'] = structuredClone(after.paths['/api/v1']);
    expect(breakingChanges(before, after)).toEqual([]);
  });

  it('fails on a removed response field', async () => {
    const before = await snapshot();
    const after = structuredClone(before);
    delete after.components.schemas.ProductFacts.properties.reviewedOn;
    after.components.schemas.ProductFacts.required = after.components.schemas.ProductFacts.required.filter(
      (name: string) => name !== 'reviewedOn',
    );
    expect(breakingChanges(before, after)).toEqual(
      expect.arrayContaining(['GET /api/v1/product 200.product.reviewedOn: response field removed']),
    );
  });

  it('fails on a field no longer required, a changed type and a removed enum value', async () => {
    const before = await snapshot();
    const after = structuredClone(before);
    after.components.schemas.Product.required = ['product', 'resources'];
    after.components.schemas.Health.properties.status = { type: 'boolean' };
    after.components.schemas.Resource.properties.kind.enum = after.components.schemas.Resource.properties.kind.enum.filter(
      (k: string) => k !== 'mcp',
    );
    const changes = breakingChanges(before, after);
    expect(changes).toContain('GET /api/v1/product 200.startOptions: response field no longer required');
    expect(changes).toContain('GET /api/v1/health 200.status: type changed from string to boolean');
    expect(changes).toContain('GET /api/v1/product 200.resources[].kind: enum value "mcp" removed');
  });

  it('fails on a removed path, operation, response and header', async () => {
    const before = await snapshot();
    const after = structuredClone(before);
    delete after.paths['/api/v1/health'];
    delete after.paths['/api/v1'].head;
    delete after.paths['/api/v1/product'].get.responses['304'];
    delete after.paths['/api/v1/product'].get.responses['200'].headers.ETag;
    const changes = breakingChanges(before, after);
    expect(changes).toContain('/api/v1/health: path removed');
    expect(changes).toContain('HEAD /api/v1: operation removed');
    expect(changes).toContain('GET /api/v1/product 304: response removed');
    expect(changes).toContain('GET /api/v1/product 200: header ETag removed');
  });

  it('passes a response widened to anyOf with the old shape as a branch, and fails one without it', async () => {
    const before = await snapshot();
    const widened = structuredClone(before);
    const ok = widened.paths['/api/v1'].get.responses['200'].content['application/json'];
    ok.schema = { anyOf: [ok.schema, { type: 'array', items: ok.schema }] };
    expect(breakingChanges(before, widened)).toEqual([]);
    const replaced = structuredClone(before);
    replaced.paths['/api/v1'].get.responses['200'].content['application/json'].schema = { anyOf: [{ type: 'array' }, { type: 'string' }] };
    expect(breakingChanges(before, replaced)).toContain('GET /api/v1 200: type changed from object to array');
  });

  it('passes an error response the service no longer answers', async () => {
    const before = await snapshot();
    const after = structuredClone(before);
    delete after.paths['/api/v1/product'].get.responses['429'];
    expect(breakingChanges(before, after)).toEqual([]);
  });

  it('fails on a new required input', async () => {
    const before = await snapshot();
    const after = structuredClone(before);
    after.paths['/api/v1/product'].get.parameters = [{ name: 'lang', in: 'query', required: true, schema: { type: 'string' } }];
    after.components.schemas.JsonRpcMessage.required.push('params');
    const changes = breakingChanges(before, after);
    expect(changes).toContain('GET /api/v1/product: new required query parameter lang');
    expect(changes).toContain('POST /mcp request.params: new required request field');
  });
});
