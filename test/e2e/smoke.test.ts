import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, startEntry, type RunningEntry } from '../support/entries.ts';

describe.each(RUNTIMES)('%s entry', (runtime) => {
  let server: RunningEntry;
  beforeAll(async () => {
    server = await startEntry(runtime);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves the product facts', async () => {
    const response = await fetch(`${server.url}/api/v1/product`);
    expect(response.status).toBe(200);
    expect((await response.json()).product.name).toBe('Lumen Galleries');
  });
});
