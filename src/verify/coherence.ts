/**
 * @module Whether the deployment agrees with itself and with the URL checked: every `{base}` it
 * writes (servers[0].url, the service-desc Links, problem types, the index's links) is that URL,
 * and every part of it reports one release.
 */
import { withoutTrailingSlash } from '../contract/base-url.ts';
import { API_PATH, OPENAPI_PATH } from '../route.ts';
import { linkTargets } from './fields.ts';
import { checkAll, type Check } from './report.ts';
import type { Answer } from './session.ts';

/** Each `{base}` the deployment wrote, with where: derived from URLs whose path the contract fixes. */
function writtenBases(document: any, answers: Answer[]): { base: string; where: string }[] {
  const found: { base: string; where: string }[] = [
    { base: withoutTrailingSlash(String(document.servers?.[0]?.url ?? '(none)')), where: 'servers[0].url' },
  ];
  for (const answer of answers) {
    for (const target of linkTargets(answer.headers.get('link'), 'service-desc')) {
      if (target.endsWith(OPENAPI_PATH))
        found.push({ base: target.slice(0, -OPENAPI_PATH.length), where: `Link on ${answer.method} ${answer.path}` });
    }
    if (answer.status >= 400 && /problem\+json/.test(answer.headers.get('content-type') ?? '')) {
      const type = /"type"\s*:\s*"([^"]+)\/problems\/[a-z_]+"/.exec(answer.body)?.[1];
      if (type) found.push({ base: type, where: `problem type on ${answer.method} ${answer.path}` });
    }
    if (answer.method === 'GET' && answer.path === API_PATH && answer.status === 200) {
      const self = /"self"\s*:\s*"([^"]+)\/api\/v1"/.exec(answer.body)?.[1];
      if (self) found.push({ base: self, where: 'the API index links' });
    }
  }
  return found;
}

export function baseCheck(url: string, document: any, answers: Answer[]): Check {
  const wrong = writtenBases(document, answers).filter(({ base }) => base !== url);
  const distinct = [...new Set(wrong.map(({ base }) => base))];
  return checkAll(
    'base',
    `{base} = ${url} in servers[0].url, Links, problem types and the index`,
    distinct.map((base) => {
      const places = wrong.filter((w) => w.base === base).length;
      return `${base} (${places} ${places === 1 ? 'place' : 'places'}, first ${wrong.find((w) => w.base === base)!.where})`;
    }),
    url,
    `the service does not know its public URL, so links lead clients elsewhere: set PUBLIC_BASE_URL=${url} (behind a proxy the service sees its own address, or the Host the proxy sends: nginx sends $proxy_host unless told otherwise)`,
  );
}

export function versionCheck(reported: { where: string; version: string | undefined }[]): Check {
  const known = reported.filter((r): r is { where: string; version: string } => r.version !== undefined);
  const first = known[0]?.version;
  return checkAll(
    'version',
    'one release reported by the OpenAPI document, health, the server card and serverInfo',
    known.filter((r) => r.version !== first).map((r) => `${r.where} says ${r.version}, ${known[0]!.where} ${first}`),
    `${first} (${known.map((r) => r.where).join(', ')})`,
    'instances of different releases answer behind this URL (a rolling deploy in progress, or an old instance left in the pool)',
  );
}
