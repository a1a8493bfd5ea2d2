/**
 * The sample's v1 answers the contract freezes besides the OpenAPI document: the JSON bodies of the
 * REST documents and the MCP results (2025 era; the 2026-07-28 results carry the same objects), and
 * the rule they may change by: only by adding.
 */
import { makeHandler, sampleFacts, send } from './handler.ts';
import { frame } from './mcp.ts';

export const ANSWERS_SNAPSHOT = new URL('../contract/answers.v1.json', import.meta.url);

const DOCUMENTS = ['/', '/api/v1', '/api/v1/product', '/.well-known/api-catalog', '/mcp/server-card'];

export async function currentAnswers(): Promise<Record<string, unknown>> {
  const handler = await makeHandler();
  try {
    const answers: Record<string, unknown> = {};
    for (const path of DOCUMENTS) answers[`GET ${path}`] = await (await send(handler, path)).json();
    const rpc = async (method: string, params: Record<string, unknown> = {}, label = method) => {
      const { headers, body } = frame('legacy', method, params, { id: 1 });
      answers[`MCP ${label}`] = (await (await send(handler, '/mcp', { method: 'POST', headers, body })).json()).result;
    };
    for (const method of ['tools/list', 'prompts/list', 'resources/list']) await rpc(method);
    for (const name of ['get_product_overview', 'list_public_resources', 'list_start_options']) {
      await rpc('tools/call', { name, arguments: {} }, `tools/call ${name}`);
    }
    const facts = sampleFacts();
    const ids = [
      'overview',
      ...facts.resources.map((resource) => `resource:${resource.id ?? resource.kind}`),
      ...facts.startOptions.map((option) => `start:${option.id}`),
    ];
    for (const id of ids) await rpc('tools/call', { name: 'fetch', arguments: { id } }, `tools/call fetch ${id}`);
    await rpc('prompts/get', { name: 'plan_safe_start', arguments: { goal: 'deliver a wedding' } }, 'prompts/get plan_safe_start');
    return answers;
  } finally {
    await handler.close();
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What `after` no longer has of `before`: a removed member, a changed value or type, a removed array
 * entry. Added members and entries pass. Prose (`description`, `instructions`) may be reworded; a
 * Markdown `text` passes when it keeps every line it had, in order (lines added between them, words at their ends).
 */
export function notAdditive(before: unknown, after: unknown, at = ''): string[] {
  const key = at.split('.').at(-1);
  if (typeof before === 'string' && typeof after === 'string' && (key === 'description' || key === 'instructions')) return [];
  if (typeof before === 'string' && typeof after === 'string' && key === 'text') {
    // A tool result's text is the JSON of its structuredContent: compared as JSON.
    if (before.startsWith('{') && after.startsWith('{')) return notAdditive(JSON.parse(before), JSON.parse(after), `${at}(json)`);
    const lines = after.split('\n');
    let from = 0;
    for (const line of before.split('\n')) {
      // A line kept as it was, or with words added at its end.
      const found = lines.findIndex((candidate, index) => index >= from && candidate.startsWith(line));
      if (found < 0) return [`${at}: line ${JSON.stringify(line)} removed or changed`];
      from = found + 1;
    }
    return [];
  }
  if (Array.isArray(before)) {
    if (!Array.isArray(after)) return [`${at}: no longer an array`];
    // A list of names (`required`, `enum`, tool names) may grow anywhere; a list of objects keeps its entries in place.
    if (before.every((item) => !isRecord(item) && !Array.isArray(item))) {
      return before.filter((item) => !after.includes(item)).map((item) => `${at}: entry ${JSON.stringify(item)} removed`);
    }
    if (after.length < before.length) return [`${at}: ${before.length - after.length} entries removed`];
    return before.flatMap((item, index) => notAdditive(item, after[index], `${at}[${index}]`));
  }
  if (isRecord(before)) {
    if (!isRecord(after)) return [`${at}: no longer an object`];
    return Object.keys(before).flatMap((name) =>
      Object.hasOwn(after, name) ? notAdditive(before[name], after[name], at ? `${at}.${name}` : name) : [`${at}.${name}: removed`],
    );
  }
  return Object.is(before, after) ? [] : [`${at}: ${JSON.stringify(before)} became ${JSON.stringify(after)}`];
}
