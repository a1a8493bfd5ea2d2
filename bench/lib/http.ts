/** @module One raw HTTP exchange (no decompression, no keep-alive), for capturing bytes and checking answers. */
import { request } from 'node:http';

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface RequestSpec {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export function exchange(url: string, { method = 'GET', headers = {}, body }: RequestSpec = {}): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { connection: 'close', ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
