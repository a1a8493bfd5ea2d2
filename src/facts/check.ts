/**
 * @module The reviewed facts: parsed, validated against the facts file schema and checked for
 * credentials, duplicate ids, real dates and policy before the service starts. What the file says
 * is exactly what is served (but its `$schema`, which is for editors).
 */
import { closestMatch } from 'leven';
import * as v from 'valibot';
import { StartupError } from '../util/startup-error.ts';
import { parseJsonText } from './json-text.ts';
import { emailIn, phoneIn } from './personal-data.ts';
import { approvalNeeds, listed } from './product-rules.ts';
import { FactsFile } from './schema.ts';
import type { ApprovalAction, Product, Resource } from './types.ts';

// The contract's word rule ("Surface"): a parameter carries a credential when one of its words is one
// of these, or when it is `code` alone or after auth/authorization/oauth (an OAuth authorization code).
const CREDENTIAL_WORDS = new Set([
  'token',
  'key',
  'apikey',
  'secret',
  'password',
  'passwd',
  'pwd',
  'session',
  'sessionid',
  'sid',
  'sig',
  'signature',
  'credential',
  'credentials',
  'auth',
  'jwt',
  'bearer',
]);
const CODE_OWNERS = new Set(['auth', 'authorization', 'oauth']);

/** Words of a parameter name: split at `_`, `-`, `.` and lower-to-upper case changes, lower-cased. */
const wordsOf = (name: string) =>
  name
    .split(/[_.-]|(?<=[a-z])(?=[A-Z])/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());

function carriesCredential(name: string): boolean {
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
  const json = parseJsonText(text);
  if (!json.ok) {
    const at = json.line ? ` at line ${json.line}, column ${json.column}` : '';
    throw new StartupError(`Facts file ${source} is not valid JSON${at}: ${json.reason}.`);
  }
  return checkFacts(source, json.value);
}

/**
 * Checks a parsed facts document; throws a StartupError naming every bad field and its fix. Every check
 * runs whatever the others found, so one report lists every problem of the file, not the first round.
 */
export function checkFacts(source: string, json: unknown): Product {
  const result = v.safeParse(FactsFile, json);
  const fields = walk(json, FactsFile, []);
  const problems = [
    ...fields.flatMap(([value, schema, at]) => [...unknownFields(value, schema, at), ...unrealDate(value, schema, at)]),
    ...(result.success ? [] : result.issues.filter((issue) => !reportedAsUnrealDate(issue)).map(schemaIssue)),
    ...duplicateIds(json),
    ...credentialUrls(json, []),
    ...fields.flatMap(([value, schema, at]) => personalData(value, schema, at)),
    ...emptyContact(json),
    ...policy(json),
  ];
  if (problems.length > 0 || !result.success) {
    throw new StartupError(`Facts file ${source} was refused:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  }
  const { $schema: _editorsOnly, ...facts } = result.output;
  return facts;
}

type Key = string | number;
/** What the checks need of a valibot schema to follow a value through it. */
interface Shape {
  type: string;
  entries?: Record<string, Shape>;
  item?: Shape;
  wrapped?: Shape;
  pipe?: readonly Shape[];
}

/** `product.audiences[2]`: the path of a field as a product team reads it. */
const pathOf = (keys: readonly Key[]) =>
  keys.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? key : `.${key}`)).join('') || '(top level)';

/** Every value of `input` that the schema describes, with its schema and path, following objects and arrays. */
function walk(input: unknown, schema: Shape, at: Key[]): [unknown, Shape, Key[]][] {
  const shape = schema.wrapped ?? schema;
  const here: [unknown, Shape, Key[]] = [input, shape, at];
  if (Array.isArray(input) && shape.item) return [here, ...input.flatMap((item, index) => walk(item, shape.item!, [...at, index]))];
  if (!isRecord(input) || !shape.entries) return [here];
  const entries = shape.entries;
  return [
    here,
    ...Object.entries(input).flatMap(([key, value]) => (Object.hasOwn(entries, key) ? walk(value, entries[key]!, [...at, key]) : [])),
  ];
}

/** A member the schema does not name would not be served: refused by the name written, with the nearest allowed one. */
function unknownFields(input: unknown, shape: Shape, at: Key[]): string[] {
  if (!isRecord(input) || !shape.entries) return [];
  const allowed = Object.keys(shape.entries);
  const absent = allowed.filter((key) => !Object.hasOwn(input, key));
  return Object.keys(input)
    .filter((key) => !allowed.includes(key))
    .map((key) => {
      const near = closestMatch(key, absent, { maxDistance: Math.max(2, Math.floor(key.length / 4)) });
      const fix = near ? `did you mean "${near}"?` : `remove it, or use one of: ${allowed.join(', ')}`;
      return `${pathOf([...at, key])}: unknown field "${key}"; ${fix}`;
    });
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

function schemaIssue(issue: v.BaseIssue<unknown>): string {
  const at = pathOf(issue.path?.map((item) => item.key as Key) ?? []);
  // valibot's words for a missing key are "Invalid key: Expected "x" but received undefined".
  const missing = issue.type === 'object' && issue.received === 'undefined' && issue.path?.length;
  if (missing) return `${at}: required field ${issue.expected} is missing; add it`;
  if (typeof issue.input === 'string' && /^(mailto|tel):/i.test(issue.input) && issue.type === 'regex')
    return `${at}: ${contactLink(issue.input)}`;
  // valibot's words for a wrong type are "Invalid type: Expected string but received 5".
  const type = TYPE_WORDS[issue.type];
  if (issue.kind === 'schema' && type) return `${at}: must be ${type}, not ${issue.received}`;
  return `${at}: ${issue.message}`;
}

/** A `mailto:` or `tel:` link is contact data: where the product's own public contact goes instead. */
const contactLink = (url: string) =>
  `a ${url.split(':')[0]!.toLowerCase()}: link is not served here; link to a public https contact or support page, and put the ` +
  "product's own public address in product.contact (url, email)";

const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A YYYY-MM-DD date that does not exist is named by `unrealDate`, not also by the ISO 8601 pattern. */
const reportedAsUnrealDate = (issue: v.BaseIssue<unknown>) => issue.type === 'iso_date' && DATE_SHAPE.test(String(issue.input));

/** The ISO 8601 shape alone admits 2026-02-31; a date that exists reads back the same. Month 13 or day 32 is named. */
function unrealDate(input: unknown, shape: Shape, at: Key[]): string[] {
  if (typeof input !== 'string' || !actionsOf(shape).includes('iso_date')) return [];
  const [, , month, day] = DATE_SHAPE.exec(input) ?? [];
  if (!month || !day) return [];
  const date = new Date(`${input}T00:00:00Z`);
  if (!Number.isNaN(date.getTime()) && date.toISOString().startsWith(input)) return [];
  const why = +month < 1 || +month > 12 ? ` (there is no month ${month})` : +day < 1 || +day > 31 ? ` (there is no day ${day})` : '';
  return [`${pathOf(at)}: "${input}" is not a date that exists${why}; give a real calendar date (YYYY-MM-DD)`];
}

/** The types of a schema's pipe actions, nested pipes included (`v.pipe(isoDate, v.description(...))`). */
const actionsOf = (shape: Shape): string[] => (shape.pipe ?? []).flatMap((item) => [item.type, ...actionsOf(item)]);

/** Start options and actions are known by `id`, resources by `resourceId`: each must be unique in its list. */
function duplicateIds(json: unknown): string[] {
  if (!isRecord(json)) return [];
  const repeated = (list: unknown, name: string, idOf: (item: Record<string, unknown>) => [unknown, boolean], what: string) => {
    const seen = new Map<string, number>();
    return (Array.isArray(list) ? list : []).flatMap((item, index) => {
      const [id, written] = isRecord(item) ? idOf(item) : [undefined, false];
      if (typeof id !== 'string') return [];
      const first = seen.get(id);
      if (first === undefined) {
        seen.set(id, index);
        return [];
      }
      const at = written ? `${name}[${index}].id` : `${name}[${index}]`;
      return [
        `${at}: id "${id}"${written ? '' : ' (its kind, as it has no "id")'} is already used by ${name}[${first}]; give each ${what} its own "id"`,
      ];
    });
  };
  return [
    ...repeated(json.resources, 'resources', (item) => (item.id !== undefined ? [item.id, true] : [item.kind, false]), 'resource'),
    ...repeated(json.startOptions, 'startOptions', (item) => [item.id, true], 'start option'),
    ...repeated(
      isRecord(json.product) ? json.product.actionsNeedingApproval : undefined,
      'product.actionsNeedingApproval',
      (item) => [item.id, true],
      'action',
    ),
  ];
}

function credentialUrls(value: unknown, at: Key[]): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => credentialUrls(item, [...at, index]));
  if (isRecord(value)) return Object.entries(value).flatMap(([key, item]) => credentialUrls(item, [...at, key]));
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value) || !URL.canParse(value)) return [];
  const url = new URL(value);
  const path = pathOf(at);
  if (url.username || url.password) return [`${path}: URL carries user info; remove the user name and password from it`];
  const carrier = [...url.searchParams.keys()].find(carriesCredential);
  return carrier ? [`${path}: URL query parameter "${carrier}" may carry a credential; link to a public page without it`] : [];
}

/**
 * An e-mail address or a phone number in free text or in a URL's query is a person's data, served to anyone:
 * refused. `product.contact.email` is the one field for an address, the product's own public one.
 */
function personalData(input: unknown, shape: Shape, at: Key[]): string[] {
  if (typeof input !== 'string' || (at.length === 1 && at[0] === '$schema')) return [];
  const actions = actionsOf(shape);
  if (actions.includes('email')) return [];
  const isUrl = actions.includes('url');
  if (isUrl && !URL.canParse(input)) return [];
  const texts = isUrl ? [...new URL(input).searchParams.values()] : [input];
  const where = isUrl ? 'in its query ' : '';
  const email = texts.map(emailIn).find(Boolean);
  const phone = texts.map((text) => phoneIn(text, { together: !isUrl })).find(Boolean);
  return [
    ...(email
      ? [
          `${pathOf(at)}: ${where}"${email}" is an e-mail address, and client data is never served; remove it (the product's own ` +
            'public address goes in product.contact.email)',
        ]
      : []),
    ...(phone
      ? [
          `${pathOf(at)}: ${where}"${phone}" looks like a phone number, and client data is never served; remove it (link to the ` +
            "product's public contact page in product.contact.url)",
        ]
      : []),
  ];
}

function emptyContact(json: unknown): string[] {
  const contact = isRecord(json) && isRecord(json.product) ? json.product.contact : undefined;
  if (!isRecord(contact) || contact.url !== undefined || contact.email !== undefined) return [];
  return ['product.contact: gives neither "url" nor "email"; give a public contact page, an address, or both, or remove it'];
}

/**
 * The approval rule (product-rules.ts) and the actions it names: every `performs` id must be one the facts list.
 * Read from the file as written, whatever else is wrong with it, so these are reported with the rest.
 */
function policy(json: unknown): string[] {
  if (!isRecord(json)) return [];
  const given = isRecord(json.product) && Array.isArray(json.product.actionsNeedingApproval) ? json.product.actionsNeedingApproval : [];
  const actions = given.filter(
    (action): action is ApprovalAction => isRecord(action) && typeof action.id === 'string' && typeof action.action === 'string',
  );
  const facts = { product: { actionsNeedingApproval: actions } } as Pick<Product, 'product'>;
  const known = actions.map((action) => action.id);
  const options = Array.isArray(json.startOptions) ? json.startOptions : [];
  return options.flatMap((item, index) => {
    if (!isRecord(item)) return [];
    const written: unknown[] = Array.isArray(item.performs) ? item.performs : [];
    const performs = written.filter((id): id is string => typeof id === 'string');
    const option = { performs, createsGallery: item.createsGallery === true, requiresHumanApproval: item.requiresHumanApproval !== false };
    const at = `startOptions[${index}]`;
    const unknown = written.flatMap((id, position) =>
      typeof id !== 'string' || known.includes(id)
        ? []
        : [
            `${at}.performs[${position}]: "${id}" is not the id of an action in product.actionsNeedingApproval; ` +
              (known.length > 0 ? `use one of: ${known.join(', ')}` : 'list the action there first, with why it needs approval'),
          ],
    );
    const needs = approvalNeeds(option, facts);
    const performed = listed(
      needs.map((need) => `${need.action} (${need.field})`),
      'and',
    );
    const unapproved =
      needs.length > 0 && !option.requiresHumanApproval
        ? [
            `${at}.requiresHumanApproval: false, but the option performs ${performed}, which ${needs.length > 1 ? 'need' : 'needs'} ` +
              "a person's approval; set it to true",
          ]
        : [];
    return [...unknown, ...unapproved];
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
