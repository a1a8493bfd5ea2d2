/** The v1 contract snapshot: the OpenAPI document as built for a fixed base URL. */
import { fileURLToPath } from 'node:url';
import { get, makeHandler } from './handler.ts';

export const SNAPSHOT = fileURLToPath(new URL('../contract/openapi.v1.json', import.meta.url));

export async function currentDocument() {
  const handle = await makeHandler();
  try {
    return await (await handle(get('/openapi.json'))).json();
  } finally {
    await handle.close();
  }
}
