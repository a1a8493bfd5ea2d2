/**
 * @module /.well-known/security.txt (RFC 9116): whom to tell about a vulnerability. Served only while
 * SECURITY_CONTACT is set; `Expires` is a year after the documents were built, so each start-up and
 * each reload renews it.
 */
import { SECURITY_TXT_PATH } from '../route.ts';
import { invalidConfiguration, settingLine } from '../util/startup-error.ts';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** RFC 9116 section 2.5.5: an RFC 3339 date-time, less than a year ahead. */
export const securityTxtExpiry = (builtAt: Date) => new Date(builtAt.getTime() + YEAR_MS - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function buildSecurityTxt(base: string, contact: string, builtAt: Date): string {
  return [
    `# ${base}: a public, read-only API. Report security problems to the contact below.`,
    `Contact: ${contact}`,
    `Expires: ${securityTxtExpiry(builtAt)}`,
    `Canonical: ${base}${SECURITY_TXT_PATH}`,
    'Preferred-Languages: en',
    '',
  ].join('\n');
}

/** RFC 9116 section 2.5.3: a Contact is a URI; this service takes a `mailto:` address or an `https:` page. */
export function securityContactProblem(uri: string): string | undefined {
  if (!URL.canParse(uri)) return 'must be a mailto: or https: URI, such as mailto:security@example.com or https://example.com/security';
  const { protocol, pathname, hostname } = new URL(uri);
  if (protocol === 'mailto:')
    return /^[^@\s]+@[^@\s]+$/.test(decodeURIComponent(pathname))
      ? undefined
      : 'must name one address, such as mailto:security@example.com';
  if (protocol === 'https:') return hostname ? undefined : 'must name a host, such as https://example.com/security';
  return `must be a mailto: or https: URI (not ${protocol}), such as mailto:security@example.com`;
}

/** The createHandler option, checked as SECURITY_CONTACT is: a bad one is refused naming the option and the fix. */
export function checkSecurityContact(uri: string): string {
  const problem = securityContactProblem(uri);
  if (problem) throw invalidConfiguration(settingLine('securityContact', uri, problem));
  return uri;
}
