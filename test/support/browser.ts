/**
 * Headless Chromium (Debian's, at /usr/bin/chromium or CHROMIUM_PATH) driven by playwright-core:
 * opens a page and records what a developer's browser would show and send: console errors, uncaught
 * exceptions, Content-Security-Policy violations (the `securitypolicyviolation` events and the
 * console's "Refused to ..." lines), every request's URL, and the cookies the page ends up with.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from './entries.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Without the background-networking flags Chromium tries Google's hosts on start. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const PART_HEIGHT = 1000;

/** Where screenshots go (gitignored). */
export const ARTIFACTS = join(ROOT, 'test-artifacts');

/** Playwright starts Chromium headless with a fresh temporary profile (--user-data-dir) of its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
}

export interface Visit {
  page: Page;
  context: BrowserContext;
  consoleErrors: string[];
  pageErrors: string[];
  /** Each violation as "directive blocked-uri". */
  cspViolations(): Promise<string[]>;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** Saves a PNG under test-artifacts/: of `selector`'s element, else of the viewport. */
  screenshot(name: string, selector?: string): Promise<string>;
  close(): Promise<void>;
}

export async function visit(browser: Browser, url: string, { width = 1280, height = 900 } = {}): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const requests: string[] = [];
  // Injected through the DevTools protocol, so the page's own CSP does not apply to it.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  context.on('request', (request) => requests.push(request.url()));
  await page.goto(url, { waitUntil: 'load' });
  return {
    page,
    context,
    consoleErrors,
    pageErrors,
    requests,
    async cspViolations() {
      const events = await page.evaluate(() => (globalThis as unknown as { __cspViolations: string[] }).__cspViolations);
      return [...events, ...consoleErrors.filter((text) => /Content Security Policy/i.test(text))];
    },
    async screenshot(name, selector) {
      const path = join(ARTIFACTS, name);
      await mkdir(dirname(path), { recursive: true });
      if (!selector) {
        await page.screenshot({ path });
        return path;
      }
      // A tall element is saved in parts a screen high (name-1.png, name-2.png, ...), each readable on its own.
      const box = (await page.locator(selector).boundingBox())!;
      const scroll = await page.evaluate(() => ({ x: scrollX, y: scrollY }));
      const parts = Math.ceil(box.height / PART_HEIGHT);
      for (let part = 0; part < parts; part++) {
        const y = box.y + scroll.y + part * PART_HEIGHT;
        const clip = { x: box.x + scroll.x, y, width: box.width, height: Math.min(PART_HEIGHT, box.y + scroll.y + box.height - y) };
        await page.screenshot({ path: parts === 1 ? path : path.replace(/\.png$/, `-${part + 1}.png`), clip, fullPage: true });
      }
      return path;
    },
    close: () => context.close(),
  };
}
