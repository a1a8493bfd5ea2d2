import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkedSample } from '../../scripts/bundle.mjs';
import { checkFacts } from '../../src/facts/check.ts';
import sampleFacts from '../../src/facts/sample-facts.json' with { type: 'json' };

describe('the shipped sample in the start-up bundles', () => {
  it('is what checkFacts makes of it at start', async () => {
    expect(await checkedSample()).toEqual(checkFacts('(shipped sample)', sampleFacts));
  });

  it('fails the build when the sample is refused', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sample-')), 'facts.json');
    writeFileSync(file, JSON.stringify({ ...sampleFacts, resources: [] }));
    await expect(checkedSample(file)).rejects.toThrow(/resources.*at least one/s);
  });
});
