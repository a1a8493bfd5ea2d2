/** Reading a stream as text up to a size: whole below it, stopped at the first chunk past it. */
import { describe, expect, it } from 'vitest';
import { boundedText } from '../../src/util/bounded.ts';

const streamOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });

describe('boundedText', () => {
  it('gives the text of every chunk, multi-byte characters split across chunks included', async () => {
    const euro = new TextEncoder().encode('€');
    const split = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(euro.subarray(0, 1));
        controller.enqueue(euro.subarray(1));
        controller.close();
      },
    });
    expect(await boundedText(split, 3, async () => {})).toBe('€');
    expect(await boundedText(streamOf('ab', 'cd'), 4, async () => {})).toBe('abcd');
  });

  it('stops at the first chunk past the limit and hands the reader over with the size read', async () => {
    const past: number[] = [];
    const text = await boundedText(streamOf('abc', 'def', 'ghi'), 5, async (reader, size) => {
      past.push(size);
      await reader.cancel();
    });
    expect(text).toBeUndefined();
    expect(past).toEqual([6]);
  });
});
