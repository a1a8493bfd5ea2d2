import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  FetchInput,
  FetchOutput,
  JsonRpcBatch,
  MAX_BATCH_MESSAGES,
  PlanSafeStartArgs,
  SearchInput,
  SearchOutput,
} from '../../src/mcp/schemas.ts';

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('the MCP schemas', () => {
  it('say which argument is missing, and what to send when the arguments are no object', () => {
    expect(v.safeParse(SearchInput, {}).issues?.[0]?.message).toBe(
      'missing argument "query": this tool takes only "query", 1 to 200 characters',
    );
    expect(v.safeParse(SearchInput, { query: 'a', page: 2 }).issues?.[0]?.message).toMatch(/^unknown argument: /);
    expect(v.safeParse(FetchInput, 'overview').issues?.[0]?.message).toMatch(
      /^the arguments must be a JSON object: this tool takes only "id"/,
    );
  });

  it('bound every free-text argument to 1 to 200 characters', () => {
    expect(v.safeParse(SearchInput, { query: 'x'.repeat(200) }).success).toBe(true);
    expect(v.safeParse(SearchInput, { query: 'x'.repeat(201) }).issues?.[0]?.message).toBe('query must be at most 200 characters');
    expect(v.safeParse(FetchInput, { id: '' }).issues?.[0]?.message).toBe('id must not be empty');
    expect(v.safeParse(PlanSafeStartArgs, {}).success).toBe(true);
    expect(v.safeParse(PlanSafeStartArgs, { goal: 'x'.repeat(201) }).success).toBe(false);
  });

  it('take the connector shapes: results with id, title and an absolute url; a document with its Markdown text', () => {
    expect(
      v.safeParse(SearchOutput, { results: [{ id: 'overview', title: 'T', url: 'https://api.example.com/api/v1/product' }] }).success,
    ).toBe(true);
    expect(v.safeParse(SearchOutput, { results: [{ id: 'overview', title: 'T', url: '' }] }).success).toBe(false);
    expect(
      v.safeParse(FetchOutput, { id: 'overview', title: 'T', text: '# T', url: 'https://api.example.com/api/v1/product' }).success,
    ).toBe(true);
  });

  it(`hold a batch of 1 to ${MAX_BATCH_MESSAGES} messages`, () => {
    expect(v.safeParse(JsonRpcBatch, [ping(1)]).success).toBe(true);
    expect(v.safeParse(JsonRpcBatch, []).success).toBe(false);
    expect(
      v.safeParse(
        JsonRpcBatch,
        Array.from({ length: MAX_BATCH_MESSAGES + 1 }, (_, i) => ping(i)),
      ).success,
    ).toBe(false);
  });
});
