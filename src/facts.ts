/**
 * @module The reviewed facts: parsed, validated against the Product schema and checked for
 * credentials and policy before the service starts. What the file says is exactly what is served.
 */
import * as v from 'valibot';
import { StartupError } from './startup-error.ts';
import { Product, type Resource } from './schemas.ts';

// The contract's word rule ("Surface"): a parameter carries a credential when one of its words is one
// of these, or when it is `code` alone or after auth/authorization/oauth (an OAuth authorization code).
const CREDENTIAL_WORDS = new Set([
  'token', 'key', 'apikey', 'secret', 'password', 'passwd', 'pwd', 'session', 'sessionid', 'sid',
  'sig', 'signature', 'credential', 'credentials', 'auth', 'jwt', 'bearer',
]);
const CODE_OWNERS = new Set(['auth', 'authorization', 'oauth']);

/** Words of a parameter name: split at `_`, `-`, `.` and lower-to-upper case changes, lower-cased. */
const wordsOf = (name: string) =>
  name.split(/[_.-]|(?<=[a-z])(?=[A-Z])/).filter(Boolean).map((word) => word.toLowerCase());

export function carriesCredential(name: string): boolean {
  const words = wordsOf(name);
  return (
    words.some((word) => CREDENTIAL_WORDS.has(word)) ||
    words.some((word, index) => word === 'code' && (words.length === 1 || CODE_OWNERS.has(words[index - 1] ?? '')))
  );
}

/** A resource's stable identifier: its `id`, or its `kind` when it has none. */
export const resourceId = (resource: Resource): string => resource.id ?? resource.kind;

/** Parses and checks a facts document; throws a StartupError naming every bad field and its fix. */
export function parseFacts(source: string, text: string): Product {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new StartupError(`Facts file ${source} is not valid JSON (${(error as Error).message}): fix the syntax.`);
  }
  return checkFacts(source, json);
}

export function checkFacts(source: string, json: unknown): Product {
  const result = v.safeParse(Product, json);
  const problems = result.success
    ? [...unknownFields(json, result.output, ''), ...credentialUrls(result.output, ''), ...policy(result.output)]
    : result.issues.map((issue) => `${v.getDotPath(issue) ?? '(top level)'}: ${issue.message}`);
  if (problems.length > 0 || !result.success) {
    throw new StartupError(`Facts file ${source} was refused:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  }
  return result.output;
}

/** The schema drops unknown keys; a reviewed file must not contain anything that would not be served. */
function unknownFields(input: unknown, output: unknown, path: string): string[] {
  if (Array.isArray(input) && Array.isArray(output)) {
    return input.flatMap((item, index) => unknownFields(item, output[index], `${path}[${index}]`));
  }
  if (isRecord(input) && isRecord(output)) {
    return Object.keys(input).flatMap((key) => {
      const at = path ? `${path}.${key}` : key;
      return key in output ? unknownFields(input[key], output[key], at) : [`${at}: unknown field; remove it or correct its name`];
    });
  }
  return [];
}

function credentialUrls(value: unknown, path: string): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => credentialUrls(item, `${path}[${index}]`));
  if (isRecord(value)) {
    return Object.entries(value).flatMap(([key, item]) => credentialUrls(item, path ? `${path}.${key}` : key));
  }
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value) || !URL.canParse(value)) return [];
  const url = new URL(value);
  if (url.username || url.password) return [`${path}: URL carries user info; remove the user name and password from it`];
  const carrier = [...url.searchParams.keys()].find(carriesCredential);
  return carrier ? [`${path}: URL query parameter "${carrier}" may carry a credential; link to a public page without it`] : [];
}

function policy(facts: Product): string[] {
  return facts.startOptions.flatMap((option, index) =>
    option.createsGallery && !option.requiresHumanApproval
      ? [`startOptions[${index}].requiresHumanApproval: creating a gallery always needs a person's approval; set it to true`]
      : [],
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
