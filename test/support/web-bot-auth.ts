/**
 * Web Bot Auth for the tests: RFC 9421's Ed25519 test key, a signer that writes the signature base
 * out line by line (as NOTES.md gives it, not through the verifier's code), and a key directory
 * served on a loopback origin.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** RFC 9421 Appendix B.1.4, `test-key-ed25519`, as a JWK (the same key as cloudflare/web-bot-auth's examples/rfc9421-keys/ed25519.json). */
export const TEST_KEY = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
  d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
} as const;
/** Its RFC 7638 thumbprint, the `keyid` of the Web Bot Auth draft's reference vectors. */
export const TEST_KEY_THUMBPRINT = 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U';

export type PrivateJwk = { kty: string; crv: string; x: string; d: string };

/** A fresh Ed25519 key pair as a private JWK (a key no directory lists). */
export async function freshKey(): Promise<PrivateJwk> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  return (await crypto.subtle.exportKey('jwk', pair.privateKey)) as PrivateJwk;
}

export const publicJwk = ({ kty, crv, x }: PrivateJwk) => ({ kty, crv, x });

export interface SignOptions {
  /** The authority signed as `@authority` (`api.example.com`). */
  authority: string;
  /** The agent's origin in Signature-Agent. */
  agent: string;
  key?: PrivateJwk;
  keyid?: string;
  created?: number;
  expires?: number;
  label?: string;
  /** `dictionary`: `Signature-Agent: sig1="..."` covered as `"signature-agent";key="sig1"`; `string`: the older bare string. */
  form?: 'dictionary' | 'string';
  tag?: string;
}

/** The Signature, Signature-Input and Signature-Agent headers of a Web Bot Auth signature. */
export async function signedHeaders({
  authority,
  agent,
  key = TEST_KEY,
  keyid = TEST_KEY_THUMBPRINT,
  created = Math.floor(Date.now() / 1000),
  expires = created + 60,
  label = 'sig1',
  form = 'dictionary',
  tag = 'web-bot-auth',
}: SignOptions): Promise<Record<string, string>> {
  const agentHeader = form === 'dictionary' ? `${label}="${agent}"` : `"${agent}"`;
  const agentComponent = form === 'dictionary' ? `"signature-agent";key="${label}"` : '"signature-agent"';
  const params = `("@authority" ${agentComponent});created=${created};expires=${expires};keyid="${keyid}";alg="ed25519";tag="${tag}"`;
  const base = [
    `"@authority": ${authority}`,
    `${agentComponent}: ${form === 'dictionary' ? `"${agent}"` : agentHeader}`,
    `"@signature-params": ${params}`,
  ].join('\n');
  const privateKey = await crypto.subtle.importKey('jwk', key, { name: 'Ed25519' }, false, ['sign']);
  const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, privateKey, new TextEncoder().encode(base)));
  return {
    'signature-agent': agentHeader,
    'signature-input': `${label}=${params}`,
    signature: `${label}=:${btoa(String.fromCharCode(...signature))}:`,
  };
}

export interface DirectoryServer {
  origin: string;
  /** How many times the directory was asked for. */
  readonly requests: number;
  /** What the next answers are: keys, media type, Cache-Control, or a redirect/status of their own. */
  set(answer: Partial<DirectoryAnswer>): void;
  close(): Promise<void>;
}

export interface DirectoryAnswer {
  keys: object[];
  mediaType: string;
  cacheControl?: string;
  status: number;
  location?: string;
  /** Bytes of padding added to the body (to pass the size bound). */
  padding: number;
  /** Never answer. */
  hang?: boolean;
}

/** A key directory at http://127.0.0.1:<port>/.well-known/http-message-signatures-directory. */
export async function serveDirectory(initial: Partial<DirectoryAnswer> = {}): Promise<DirectoryServer> {
  let answer: DirectoryAnswer = {
    keys: [publicJwk(TEST_KEY)],
    mediaType: 'application/http-message-signatures-directory+json',
    cacheControl: 'max-age=300',
    status: 200,
    padding: 0,
    ...initial,
  };
  let requests = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url !== '/.well-known/http-message-signatures-directory') return void response.writeHead(404).end();
    requests++;
    if (answer.hang) return;
    const headers: Record<string, string> = { 'content-type': answer.mediaType };
    if (answer.cacheControl) headers['cache-control'] = answer.cacheControl;
    if (answer.location) headers.location = answer.location;
    response.writeHead(answer.status, headers).end(JSON.stringify({ keys: answer.keys, padding: 'x'.repeat(answer.padding) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    set: (changed) => void (answer = { ...answer, ...changed }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
