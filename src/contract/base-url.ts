/**
 * @module The public base URL (`{base}` in links, problem types and `servers`), the one rule every way
 * in checks it against (PUBLIC_BASE_URL, `createHandler`'s `publicBaseUrl`, the serverless and Workers
 * entries, `registry --base`): an absolute http(s) URL with no user information, query, fragment or
 * surrounding white space, its trailing slashes dropped. Each caller passes the name its user wrote.
 */
import { invalidConfiguration, settingLine } from '../util/startup-error.ts';

const EXAMPLE = 'such as https://api.example.com';

/** Whether `text` is an absolute http or https URL. */
export const isHttpUrl = (text: string): boolean => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);

/** What is wrong with `text` as a public base URL, in words every way in shares; undefined when nothing is. */
export function baseUrlProblem(text: string): string | undefined {
  if (text.trim() !== text) return `must not begin or end with white space: write the URL alone, ${EXAMPLE}`;
  if (!URL.canParse(text)) return `must be an absolute URL ${EXAMPLE}`;
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must use http or https, ${EXAMPLE}`;
  // Every link, the Link header and the server card would publish it.
  if (url.username || url.password || /^[a-z]+:\/\/[^/?#]*@/i.test(text)) {
    return `must not carry user information (user:password@), which every link would publish: write the URL clients reach, ${EXAMPLE}`;
  }
  if (url.search || text.includes('?')) return `must not carry a query: write the URL clients reach, ${EXAMPLE}`;
  if (url.hash || text.includes('#')) return `must not carry a fragment: write the URL clients reach, ${EXAMPLE}`;
  return undefined;
}

/** The one trailing-slash rule: `https://api.example.com/` is served as `https://api.example.com`. */
export const withoutTrailingSlash = (text: string): string => text.replace(/\/+$/, '');

/** The base URL `text` gives, checked and without its trailing slashes; a StartupError naming `name` when refused. */
export function checkBaseUrl(text: string, name = 'publicBaseUrl'): string {
  const problem = typeof text === 'string' ? baseUrlProblem(text) : `must be a string, ${EXAMPLE}`;
  if (problem) throw invalidConfiguration(settingLine(name, text, problem));
  return withoutTrailingSlash(text);
}
