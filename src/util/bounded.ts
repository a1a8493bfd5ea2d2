/**
 * @module Reading a stream as UTF-8 text up to a size, however it is framed, stopping at the first
 * chunk past it (a fetched key directory, agents/directory.ts).
 */

/**
 * The stream's text, or `undefined` once more than `limit` bytes came: the reader is then released,
 * having read `size` bytes, for the caller to cancel or drain (`past`).
 */
export async function boundedText(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  past: (reader: ReadableStreamDefaultReader<Uint8Array>, size: number) => Promise<void>,
): Promise<string | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await past(reader, size);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
