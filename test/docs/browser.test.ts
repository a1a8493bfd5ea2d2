/**
 * The docs page in a real headless Chromium. A small server made for this test serves the page, its
 * assets and a copy of the real /openapi.json (from createHandler, with the MCP section added to
 * the MCP operation as the document will carry it), and hands every other path to the handler, so
 * "Try it out" calls the real API. The page must list every operation and every MCP tool, show a
 * 200 and the product body for a tried GET, log no error, break no CSP rule and ask no other origin.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_ASSET_CACHE, DOCS_ASSETS, DOCS_PATH, docsAssetAt, loadDocsAssetBodies, pageAssets } from '../../src/docs/assets.ts';
import { describeTools, mcpMarkdown } from '../../src/docs/mcp-markdown.ts';
import { buildDocsPage, DOCS_PAGE_HEADERS, DOCS_PAGE_TYPE } from '../../src/docs/page.ts';
import type { Handler } from '../../src/handler.ts';
import { describeResources } from '../../src/mcp/resources.ts';
import { MCP_PROTOCOL_VERSIONS } from '../../src/mcp/versions.ts';
import { TOOLS } from '../../src/mcp/tools.ts';
import { launchChromium, visit, type Visit } from '../support/browser.ts';
import { closeHandlers, makeHandler, sampleFacts } from '../support/handler.ts';

const facts = sampleFacts();
let server: Server;
let base: string;
let handler: Handler;
let openapi: any;

/** What the service will answer on /docs and /docs/*, with the headers the contract asks for. */
async function docsAnswer(path: string): Promise<Response | undefined> {
  if (path === DOCS_PATH) {
    const html = buildDocsPage({ title: `${facts.product.name} public API`, assets: pageAssets() });
    return new Response(html, { headers: { 'Content-Type': DOCS_PAGE_TYPE, 'X-Content-Type-Options': 'nosniff', ...DOCS_PAGE_HEADERS } });
  }
  const asset = docsAssetAt(path);
  if (!asset) return undefined;
  const body = (await loadDocsAssetBodies()).get(asset.path)!;
  return new Response(body, { headers: { 'Content-Type': asset.contentType, 'Cache-Control': DOCS_ASSET_CACHE, 'X-Content-Type-Options': 'nosniff' } });
}

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  handler = await makeHandler({ publicBaseUrl: base });
  openapi = await (await handler(new Request(`${base}/openapi.json`))).json();
  const product = await (await handler(new Request(`${base}/api/v1/product`))).arrayBuffer();
  openapi.paths['/mcp'].post.description = mcpMarkdown({
    base,
    protocolVersions: MCP_PROTOCOL_VERSIONS,
    tools: describeTools(TOOLS, facts),
    resources: describeResources(base, facts, () => new Uint8Array(product)),
    prompts: [],
  });
  const listener = getRequestListener(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/openapi.json') return Response.json(openapi, { headers: { 'X-Content-Type-Options': 'nosniff' } });
    return (await docsAnswer(path)) ?? handler(request, { clientAddress: '127.0.0.1' });
  });
  server.on('request', listener);
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await closeHandlers();
});

describe('the docs page in Chromium', () => {
  let browser: Browser;
  let page: Visit;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await visit(browser, `${base}/docs`);
    await page.page.waitForSelector('.opblock', { timeout: 20_000 });
    await page.screenshot('docs/page.png');
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    await browser?.close();
  });

  it('lists every operation of the served document', async () => {
    const shown = await page.page.$$eval('.opblock-summary', (blocks) =>
      blocks.map((block) => `${block.querySelector('.opblock-summary-method')?.textContent?.toLowerCase()} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
    );
    const documented = Object.entries<Record<string, unknown>>(openapi.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`));
    expect(new Set(shown)).toEqual(new Set(documented));
  });

  it('shows the MCP endpoint with every tool', async () => {
    await page.page.click('#operations-mcp-postMcp .opblock-summary');
    await page.page.waitForSelector('#operations-mcp-postMcp .opblock-description-wrapper >> nth=0');
    const text = await page.page.textContent('#operations-mcp-postMcp');
    for (const tool of TOOLS) expect(text).toContain(tool.name);
    expect(text).toContain(`${base}/mcp`);
    // A tool's output schema opens on a click.
    const output = page.page.locator('#operations-mcp-postMcp details', { hasText: 'Output schema' }).first();
    expect(await output.locator('pre').isVisible()).toBe(false);
    await output.locator('summary').click();
    expect(await output.locator('pre').textContent()).toContain('"reviewedOn"');
    await page.screenshot('docs/mcp.png', '#operations-mcp-postMcp .opblock-description-wrapper >> nth=0');
  });

  it('offers "Try it out" on GET operations only', async () => {
    expect(await page.page.locator('#operations-mcp-postMcp .try-out__btn').count()).toBe(0);
    await page.page.click('#operations-v1-headProduct .opblock-summary');
    await page.page.waitForSelector('#operations-v1-headProduct .opblock-body');
    expect(await page.page.locator('#operations-v1-headProduct .try-out__btn').count()).toBe(0);
  });

  it('tries the product GET against the same origin: 200 and its body', async () => {
    const block = '#operations-v1-getProduct';
    await page.page.click(`${block} .opblock-summary`);
    await page.page.click(`${block} .try-out__btn`);
    await page.page.click(`${block} .execute`);
    await page.page.waitForSelector(`${block} .live-responses-table .response-col_status`);
    const status = await page.page.textContent(`${block} .live-responses-table .response .response-col_status`);
    expect(status?.trim()).toBe('200');
    const body = await page.page.textContent(`${block} .live-responses-table .response-col_description pre`);
    expect(JSON.parse(body!)).toEqual(JSON.parse(JSON.stringify(facts)));
    await page.screenshot('docs/try-product.png', block);
  });

  it('logs no error, breaks no CSP rule, and asks no other origin', async () => {
    expect(page.pageErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    expect(await page.cspViolations()).toEqual([]);
    expect(page.requests.filter((url) => new URL(url).origin !== base)).toEqual([]);
    expect(page.requests).toEqual(expect.arrayContaining([`${base}/docs`, `${base}/openapi.json`, ...DOCS_ASSETS.map((asset) => `${base}${asset.path}`)]));
    expect(await page.context.cookies()).toEqual([]);
  });
});
