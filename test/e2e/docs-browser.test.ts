/**
 * The docs page in a real headless Chromium, served by each real entry (Bun, Deno, Node and the
 * Worker in workerd): one browser for the file, one page load per entry. The page must list every
 * operation of the OpenAPI document the entry serves and every tool its /mcp endpoint lists, show a
 * 200 and the product body for a tried GET, log no error, break no CSP rule, set no cookie and ask
 * no other origin. Screenshots go to test-artifacts/docs/<entry>/.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, visit, type Visit } from '../support/browser.ts';
import { send } from '../support/e2e.ts';
import { ENTRIES, startEntry, type RunningEntry } from '../support/entries.ts';
import { call } from '../support/mcp.ts';

const QUOTA = 1_000_000;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(ENTRIES)('%s entry: the docs page in Chromium', (runtime) => {
  let server: RunningEntry;
  let base: string;
  let openapi: any;
  let tools: { name: string; title?: string }[];
  let page: Visit;

  beforeAll(async () => {
    server = await startEntry(runtime, { RATE_LIMIT_QUOTA: String(QUOTA) });
    base = server.url;
    openapi = (await send(`${base}/openapi.json`)).json();
    const listed = await call(base, 'modern', 'tools/list');
    expect(listed.status).toBe(200);
    tools = listed.json.result.tools;
    expect(tools.length).toBeGreaterThan(0);
    page = await visit(browser, `${base}/docs`);
    await page.page.waitForSelector('.opblock', { timeout: 30_000 });
    await page.screenshot(`docs/${runtime}/page.png`);
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    expect(await server?.stop()).toBe(0);
  });

  it('lists every operation of the served OpenAPI document', async () => {
    const shown = await page.page.$$eval('.opblock-summary', (blocks) =>
      blocks.map(
        (block) =>
          `${block.querySelector('.opblock-summary-method')?.textContent?.toLowerCase()} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
      ),
    );
    const documented = Object.entries<Record<string, unknown>>(openapi.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect(documented.length).toBeGreaterThan(10);
    expect(new Set(shown)).toEqual(new Set(documented));
  });

  it('shows the MCP endpoint with every tool /mcp lists; a tool output schema opens on a click', async () => {
    const block = '#operations-mcp-postMcp';
    await page.page.click(`${block} .opblock-summary`);
    await page.page.waitForSelector(`${block} .opblock-description-wrapper >> nth=0`);
    const text = await page.page.textContent(block);
    for (const tool of tools) expect(text, tool.name).toContain(tool.name);
    expect(text).toContain(`${base}/mcp`);
    const output = page.page.locator(`${block} details`, { hasText: 'Output schema' }).first();
    expect(await output.locator('pre').isVisible()).toBe(false);
    await output.locator('summary').click();
    expect(await output.locator('pre').textContent()).toContain('"reviewedOn"');
    await page.screenshot(`docs/${runtime}/mcp.png`, `${block} .opblock-description-wrapper >> nth=0`);
  });

  it('offers "Try it out" on GET operations only', async () => {
    expect(await page.page.locator('#operations-mcp-postMcp .try-out__btn').count()).toBe(0);
    await page.page.click('#operations-v1-headProduct .opblock-summary');
    await page.page.waitForSelector('#operations-v1-headProduct .opblock-body');
    expect(await page.page.locator('#operations-v1-headProduct .try-out__btn').count()).toBe(0);
  });

  it('tries the product GET against the same origin: 200 and the body the entry serves', async () => {
    const block = '#operations-v1-getProduct';
    const served = (await send(`${base}/api/v1/product`)).json();
    await page.page.click(`${block} .opblock-summary`);
    await page.page.click(`${block} .try-out__btn`);
    await page.page.click(`${block} .execute`);
    await page.page.waitForSelector(`${block} .live-responses-table .response-col_status`, { timeout: 20_000 });
    const status = await page.page.textContent(`${block} .live-responses-table .response .response-col_status`);
    expect(status?.trim()).toBe('200');
    const body = await page.page.textContent(`${block} .live-responses-table .response-col_description pre`);
    expect(JSON.parse(body!)).toEqual(served);
    expect(page.requests).toContain(`${base}/api/v1/product`);
    await page.screenshot(`docs/${runtime}/try-product.png`, block);
  });

  it('logs no error, breaks no CSP rule, sets no cookie and asks no other origin', async () => {
    expect(page.pageErrors).toEqual([]);
    expect(page.consoleErrors).toEqual([]);
    expect(await page.cspViolations()).toEqual([]);
    expect(page.requests.filter((url) => new URL(url).origin !== base)).toEqual([]);
    expect(page.requests).toEqual(expect.arrayContaining([`${base}/docs`, `${base}/openapi.json`]));
    expect(page.requests.filter((url) => new URL(url).pathname.startsWith('/docs/')).length).toBeGreaterThanOrEqual(2);
    expect(await page.context.cookies()).toEqual([]);
  });
});
