/** Builds handlers in-process around the shipped sample facts. */
import { checkFacts } from '../../src/facts.ts';
import { createHandler, type HandlerOptions } from '../../src/handler.ts';
import sample from '../../src/sample-facts.json' with { type: 'json' };

export const BASE = 'https://api.example.com';

export function sampleFacts() {
  return checkFacts('sample', structuredClone(sample));
}

export function makeHandler(options: Partial<HandlerOptions> = {}) {
  return createHandler({ publicBaseUrl: BASE, facts: sampleFacts(), rateLimit: { quota: 1_000_000 }, ...options });
}

export function get(path: string, init: RequestInit = {}): Request {
  return new Request(`${BASE}${path}`, init);
}
