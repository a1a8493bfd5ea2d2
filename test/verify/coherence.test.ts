/**
 * Whether a deployment agrees with itself and with the URL checked, from the handler's real
 * answers: `{base}` in servers[0].url, Links, problem types and the index links, and one release
 * across the OpenAPI document, health and the server card.
 */
import { afterAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { baseCheck, versionCheck } from '../../src/verify/coherence.ts';
import type { Answer } from '../../src/verify/session.ts';
import { BASE, closeHandlers } from '../support/handler.ts';
import { changed, sessionOf } from '../support/verify.ts';

afterAll(closeHandlers);

/** What the service says it is at: as behind a proxy with no PUBLIC_BASE_URL, its own address. */
const INTERNAL = 'http://10.0.0.5:8080';

/** The served document and the answers to the index and an unknown path, from a handler whose {base} is `publicBaseUrl`. */
async function run(publicBaseUrl = BASE) {
  const session = await sessionOf({}, { publicBaseUrl });
  const document = JSON.parse((await session.request('/openapi.json')).body);
  const answers = [await session.request('/api/v1'), await session.request('/api/v1/nope')];
  return { document, answers };
}

describe('baseCheck', () => {
  it('passes when every {base} the deployment writes is the URL checked', async () => {
    const { document, answers } = await run();
    expect(baseCheck(BASE, document, answers)).toMatchObject({ id: 'base', ok: true, got: BASE });
    expect(baseCheck(BASE, { ...document, servers: [{ url: `${BASE}/` }] }, answers).ok).toBe(true);
  });

  it('fails a deployment that does not know its public URL, naming the setting', async () => {
    const { document, answers } = await run(INTERNAL);
    const check = baseCheck(BASE, document, answers);
    // servers[0].url, the two Links, the problem type and the index's self link.
    expect(check).toMatchObject({ ok: false, got: `${INTERNAL} (5 places, first servers[0].url)` });
    expect(check.hint).toContain(`set PUBLIC_BASE_URL=${BASE}`);
  });

  it('names the first place of each {base} found: a Link, the index links, a problem type', async () => {
    const { document } = await run();
    const { answers } = await run(INTERNAL);
    expect(baseCheck(BASE, document, answers).got).toBe(`${INTERNAL} (4 places, first Link on GET /api/v1)`);
    const linkless = answers.map((answer) => changed(answer, { link: undefined }));
    expect(baseCheck(BASE, document, linkless).got).toBe(`${INTERNAL} (2 places, first the API index links)`);
    expect(baseCheck(BASE, document, linkless.slice(1)).got).toBe(`${INTERNAL} (1 place, first problem type on GET /api/v1/nope)`);
  });

  it('reads the index links on a GET 200 of /api/v1 alone, and problem types on problem answers alone', async () => {
    const { document } = await run();
    const { answers } = await run(INTERNAL);
    const [index, problem] = answers.map((answer) => changed(answer, { link: undefined })) as [Answer, Answer];
    expect(baseCheck(BASE, document, [{ ...index, status: 203 }, changed(problem, { 'content-type': 'application/json' })]).ok).toBe(true);
  });

  it('fails a document without servers', async () => {
    const { document, answers } = await run();
    expect(baseCheck(BASE, { ...document, servers: undefined }, answers).got).toMatch(/^\(none\) \(1 place, first servers\[0\]\.url\)$/);
  });
});

describe('versionCheck', () => {
  /** The release each part of the service reports. */
  async function reported() {
    const session = await sessionOf();
    const version = async (path: string, read: (body: any) => string) => read(JSON.parse((await session.request(path)).body));
    return [
      { where: 'the OpenAPI document', version: await version('/openapi.json', (body) => body.info.version) },
      { where: 'health', version: await version('/api/v1/health', (body) => body.version) },
      { where: 'the server card', version: await version('/mcp/server-card', (body) => body.version) },
    ];
  }

  it('passes one release reported everywhere, and leaves out a part that reports none', async () => {
    const parts = [...(await reported()), { where: 'serverInfo (2026-07-28)', version: undefined }];
    expect(versionCheck(parts)).toMatchObject({
      id: 'version',
      ok: true,
      got: `${pkg.version} (the OpenAPI document, health, the server card)`,
    });
  });

  it('fails a part from another release, naming it against the first', async () => {
    const parts = await reported();
    parts[1]!.version = '0.9.0';
    const check = versionCheck(parts);
    expect(check).toMatchObject({ ok: false, got: `health says 0.9.0, the OpenAPI document ${pkg.version}` });
    expect(check.hint).toContain('a rolling deploy in progress');
  });
});
