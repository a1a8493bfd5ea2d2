import { parseDictionary, type InnerList } from 'structured-headers';
import { describe, expect, it, vi } from 'vitest';
import { jwkThumbprint } from '../../src/agents/directory.ts';
import { CLOCK_SKEW_SECONDS, signatureBase, verifySignature, webBotAuth, type KeyLookup } from '../../src/agents/web-bot-auth.ts';
import { freshKey, publicJwk, signedHeaders, TEST_KEY, TEST_KEY_THUMBPRINT } from '../support/web-bot-auth.ts';

const testKey = () => crypto.subtle.importKey('jwk', publicJwk(TEST_KEY), { name: 'Ed25519' }, false, ['verify']);

/** A key lookup holding RFC 9421's test key under its thumbprint, counting its calls. */
function lookup(): KeyLookup & { calls: string[] } {
  const calls: string[] = [];
  const keyOf = async (origin: string, keyid: string) => {
    calls.push(`${origin} ${keyid}`);
    return keyid === TEST_KEY_THUMBPRINT ? testKey() : undefined;
  };
  return Object.assign(keyOf, { calls });
}

describe('RFC 9421 test vectors', () => {
  // Appendix B.2.6, "Signing a Request Using ed25519": the request, its Signature-Input and Signature.
  const request = {
    method: 'POST',
    url: 'https://example.com/foo?param=Value&Pet=dog',
    authority: 'example.com',
    headers: new Headers({
      date: 'Tue, 20 Apr 2021 02:07:55 GMT',
      'content-type': 'application/json',
      'content-length': '18',
    }),
  };
  const input = parseDictionary(
    'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
  ).get('sig-b26') as InnerList;
  const signature = parseDictionary(
    'sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:',
  ).get('sig-b26')![0] as ArrayBuffer;

  it('builds the B.2.6 signature base byte for byte', () => {
    expect(signatureBase(request, input)).toBe(
      [
        '"date": Tue, 20 Apr 2021 02:07:55 GMT',
        '"@method": POST',
        '"@path": /foo',
        '"@authority": example.com',
        '"content-type": application/json',
        '"content-length": 18',
        '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
      ].join('\n'),
    );
  });

  it('verifies the B.2.6 signature with test-key-ed25519 (B.1.4), and nothing else', async () => {
    expect(await verifySignature(request, input, signature, await testKey())).toBe(true);
    expect(await verifySignature({ ...request, authority: 'example.org' }, input, signature, await testKey())).toBe(false);
    expect(await verifySignature({ ...request, method: 'GET' }, input, signature, await testKey())).toBe(false);
    const other = await crypto.subtle.importKey('jwk', publicJwk(await freshKey()), { name: 'Ed25519' }, false, ['verify']);
    expect(await verifySignature(request, input, signature, other)).toBe(false);
  });

  it('gives test-key-ed25519 the thumbprint the Web Bot Auth vectors name, and RFC 7638 thumbprints as published', async () => {
    expect(await jwkThumbprint(TEST_KEY.x)).toBe(TEST_KEY_THUMBPRINT);
    // cloudflare/web-bot-auth, packages/jsonwebkey-thumbprint/test/fixtures/vectors.json, "ed25519".
    expect(await jwkThumbprint('11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo')).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });
});

/**
 * The Web Bot Auth reference vectors: cloudflare/web-bot-auth,
 * packages/web-bot-auth/test/test_data/web_bot_auth_architecture_v1.json and _v2.json, the Ed25519
 * entries (signed with test-key-ed25519 for https://example.com/path/to/resource).
 */
const VECTORS = {
  // v1, "sig2": the older bare-string Signature-Agent, covered as "signature-agent"; valid for an hour from 2025-01-01.
  bareString: {
    now: 1735689600 + 10,
    headers: {
      'signature-agent': '"https://signature-agent.test"',
      'signature-input':
        'sig2=("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth"',
      signature: 'sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:',
    },
  },
  // v2, "sig2": the dictionary form `agent2="..."`, covered as "signature-agent";key="agent2"; expires in 2124.
  dictionary: {
    now: undefined,
    headers: {
      'signature-agent': 'agent2="https://signature-agent.test"',
      'signature-input':
        'sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"',
      signature: 'sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:',
    },
  },
  // v2, "sig1": a valid signature over @authority alone, which names no agent.
  authorityOnly: {
    now: undefined,
    headers: {
      'signature-input':
        'sig1=("@authority");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="zIW8+cdmA3vdYagbxojpONwa/l0EKJ/O3/wD486VvsQjO/RxPaSt6ZxvQaMcQzNnqKN/mQ6hpGiFro2L2qkz5A==";tag="web-bot-auth"',
      signature: 'sig1=:QKN4fTdIYfh82fvoZCQiQA1weuozfCS/Led2zTMbewMMqH8PI2Wsy/5c4ao6B6D09nraNQdBNOADg8aM1MqfCg==:',
    },
  },
};
const AGENT = 'https://signature-agent.test';
const TARGET = 'https://example.com/path/to/resource';

function verifier(keyOf: KeyLookup = lookup(), { authority = 'example.com', now }: { authority?: string; now?: number } = {}) {
  return webBotAuth({ authority, origins: new Set([AGENT]), keyOf, ...(now !== undefined && { now: () => now }) });
}

describe('webBotAuth against the reference vectors', () => {
  it('verifies the dictionary form and the bare string, naming the agent', async () => {
    const { dictionary, bareString } = VECTORS;
    expect(await verifier()(new Request(TARGET, { headers: dictionary.headers }))).toBe(AGENT);
    expect(await verifier(lookup(), { now: bareString.now })(new Request(TARGET, { headers: bareString.headers }))).toBe(AGENT);
  });

  it('takes @authority from the configured authority, never from the request URL or Host', async () => {
    const { headers } = VECTORS.dictionary;
    expect(await verifier()(new Request('http://localhost:8787/path/to/resource', { headers: { ...headers, host: 'evil.test' } }))).toBe(
      AGENT,
    );
    expect(await verifier(lookup(), { authority: 'api.example.com' })(new Request(TARGET, { headers }))).toBeUndefined();
  });

  it('refuses a signature out of its time, within the skew', async () => {
    const { now, headers } = VECTORS.bareString;
    const at = (seconds: number) => verifier(lookup(), { now: seconds })(new Request(TARGET, { headers }));
    expect(await at(1735693200 + CLOCK_SKEW_SECONDS)).toBe(AGENT);
    expect(await at(1735693200 + CLOCK_SKEW_SECONDS + 1)).toBeUndefined();
    expect(await at(1735689600 - CLOCK_SKEW_SECONDS)).toBe(AGENT);
    expect(await at(1735689600 - CLOCK_SKEW_SECONDS - 1)).toBeUndefined();
    // At today's date the vector has long expired.
    expect(await verifier()(new Request(TARGET, { headers }))).toBeUndefined();
    expect(now).toBeGreaterThan(0);
  });

  it('refuses a valid signature that does not cover Signature-Agent, without looking a key up', async () => {
    const keyOf = lookup();
    expect(await verifier(keyOf)(new Request(TARGET, { headers: VECTORS.authorityOnly.headers }))).toBeUndefined();
    const uncovered = { ...VECTORS.authorityOnly.headers, 'signature-agent': `sig1="${AGENT}"` };
    expect(await verifier(keyOf)(new Request(TARGET, { headers: uncovered }))).toBeUndefined();
    expect(keyOf.calls).toEqual([]);
  });

  it('never looks up an agent no policy names', async () => {
    const keyOf = lookup();
    const check = webBotAuth({ authority: 'example.com', origins: new Set(['https://chatgpt.com']), keyOf });
    expect(await check(new Request(TARGET, { headers: VECTORS.dictionary.headers }))).toBeUndefined();
    expect(keyOf.calls).toEqual([]);
  });

  it('refuses a changed Signature-Agent, signature or tag, and an unknown key', async () => {
    const { headers } = VECTORS.dictionary;
    const changed = (name: string, value: string) => verifier()(new Request(TARGET, { headers: { ...headers, [name]: value } }));
    expect(await changed('signature-agent', 'agent2="https://signature-agent.test/"')).toBeUndefined();
    expect(await changed('signature', headers.signature.replace('RdNF', 'RdNG'))).toBeUndefined();
    expect(await changed('signature-input', headers['signature-input'].replace('web-bot-auth', 'other'))).toBeUndefined();
    expect(await changed('signature-input', headers['signature-input'].replace('"ed25519"', '"rsa-pss-sha512"'))).toBeUndefined();
    expect(await verifier(async () => undefined)(new Request(TARGET, { headers }))).toBeUndefined();
  });

  it('answers at once, with no work, for a request without a signature', () => {
    const keyOf = vi.fn<KeyLookup>();
    expect(verifier(keyOf)(new Request(TARGET))).toBeUndefined();
    expect(verifier(keyOf)(new Request(TARGET, { headers: { signature: 'sig1=:AAAA:' } }))).toBeUndefined();
    expect(keyOf).not.toHaveBeenCalled();
  });

  it.each([
    ['Signature-Input that is not a dictionary', { 'signature-input': '(((', signature: 'sig1=:AAAA:' }],
    ['Signature that is not a byte sequence', { ...VECTORS.dictionary.headers, signature: 'sig2="text"' }],
    ['Signature-Agent that is not structured', { ...VECTORS.dictionary.headers, 'signature-agent': 'https://signature-agent.test' }],
    [
      'missing created',
      {
        ...VECTORS.dictionary.headers,
        'signature-input': VECTORS.dictionary.headers['signature-input'].replace(';created=1735689600', ''),
      },
    ],
    [
      'a member of another type',
      { ...VECTORS.dictionary.headers, 'signature-agent': 'agent2="https://signature-agent.test";type=jwks_uri' },
    ],
  ])('refuses, never throwing, a %s', async (_, headers) => {
    expect(await verifier()(new Request(TARGET, { headers }))).toBeUndefined();
  });
});

describe('webBotAuth with the test signer', () => {
  it('verifies what the signer writes in both forms, and refuses another authority, an expired signature and an unknown key', async () => {
    const check = verifier(lookup(), { authority: 'api.example.com' });
    const sign = (options: Partial<Parameters<typeof signedHeaders>[0]>) =>
      signedHeaders({ authority: 'api.example.com', agent: AGENT, ...options }).then((headers) => check(new Request(TARGET, { headers })));
    expect(await sign({})).toBe(AGENT);
    expect(await sign({ form: 'string' })).toBe(AGENT);
    expect(await sign({ label: 'g' })).toBe(AGENT);
    expect(await sign({ authority: 'other.example.com' })).toBeUndefined();
    expect(await sign({ created: Math.floor(Date.now() / 1000) - 600 })).toBeUndefined();
    expect(await sign({ key: await freshKey() })).toBeUndefined();
  });
});
