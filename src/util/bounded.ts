/**
 * @module Reading a stream up to a size, however it is framed, stopping at the first chunk past it
 * (a request body, http/body.ts; a fetched key directory, agents/directory.ts).
 */

/**
 * The reader's bytes, or `undefined` once more than `limit` bytes came: `past` is then called with
 * the reader, having read `size` bytes, for the caller to release, cancel or drain.
 */
export async function boundedBytes(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
  past: (reader: ReadableStreamDefaultReader<Uint8Array>, size: number) => Promise<void>,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
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
  if (chunks.length === 1) return chunks[0] as Uint8Array<ArrayBuffer>;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The stream's UTF-8 text, or `undefined` once more than `limit` bytes came (see boundedBytes). */
export async function boundedText(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  past: (reader: ReadableStreamDefaultReader<Uint8Array>, size: number) => Promise<void>,
): Promise<string | undefined> {
  const bytes = await boundedBytes(stream.getReader(), limit, past);
  return bytes && new TextDecoder().decode(bytes);
}
