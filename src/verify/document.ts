/**
 * @module The deployment's own OpenAPI document as the list of what to check: every GET path (a
 * templated one filled with one value its parameter enumerates), the media types it documents,
 * and a validator for the bodies (Ajv for JSON Schema 2020-12, the dialect of OpenAPI 3.1, with
 * formats; `$ref`s resolved inside the served document).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';

type Json = any;

export interface Target {
  /** The OpenAPI path template, e.g. /problems/{code}. */
  template: string;
  /** The exact path requested, e.g. /problems/api_route_not_found. */
  path: string;
}

/** One exact path per GET operation; a template takes the first value of each parameter's enum (or example). */
export function getTargets(document: Json): { targets: Target[]; unfilled: string[] } {
  const targets: Target[] = [];
  const unfilled: string[] = [];
  for (const [template, item] of Object.entries<Json>(document.paths ?? {})) {
    if (!item?.get) continue;
    let path: string | undefined = template;
    for (const [, name] of template.matchAll(/\{([^}]+)\}/g)) {
      const parameter = [...(item.get.parameters ?? []), ...(item.parameters ?? [])].find(
        (p: Json) => p?.name === name && p?.in === 'path',
      );
      const value = parameter?.schema?.enum?.[0] ?? parameter?.example ?? parameter?.schema?.examples?.[0];
      path = value === undefined || path === undefined ? undefined : path.replace(`{${name}}`, encodeURIComponent(String(value)));
    }
    if (path === undefined) unfilled.push(template);
    else targets.push({ template, path });
  }
  return { targets, unfilled };
}

/** The paths that take methods but no GET (e.g. /mcp), with their methods: the wrong-method probes. */
export function nonGetPaths(document: Json): { path: string; methods: string[] }[] {
  const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  return Object.entries<Json>(document.paths ?? {})
    .filter(([path, item]) => !item?.get && !path.includes('{'))
    .map(([path, item]) => ({ path, methods: METHODS.filter((method) => item?.[method]).map((method) => method.toUpperCase()) }))
    .filter(({ methods }) => methods.length > 0);
}

/** JSON Pointer escaping, then URI-fragment escaping (for `{` and `}` in path templates). */
const pointerEscape = (key: string) => encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'));

const resolvePointer = (document: Json, ref: string): Json =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: Json, key) => node?.[decodeURIComponent(key).replace(/~1/g, '/').replace(/~0/g, '~')], document);

export interface Contract {
  document: Json;
  /** The media types a GET of `template` documents for `status`. */
  mediaTypes(template: string, method: string, status: number): string[];
  /** Validates `body` against the schema of that answer: the error text, or undefined when valid. */
  validate(template: string, method: string, status: number, mediaType: string, body: unknown): string | undefined;
  /** Validates `body` against a named component schema. */
  validateComponent(name: string, body: unknown): string | undefined;
}

export async function loadContract(document: Json): Promise<Contract> {
  const [{ Ajv2020 }, formats] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  const addFormats = ((formats as Json).default ?? formats) as (ajv: unknown) => void;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  const ID = 'urn:product-discovery:served-openapi';
  ajv.addSchema({ ...document, $id: ID });
  const compiled = new Map<string, ValidateFunction>();

  const response = (template: string, method: string, status: number): { at: string; node: Json } => {
    let at = `#/paths/${pointerEscape(template)}/${method.toLowerCase()}/responses/${status}`;
    let node = resolvePointer(document, at);
    if (node?.$ref) {
      at = node.$ref;
      node = resolvePointer(document, at);
    }
    return { at, node };
  };
  const run = (pointer: string, body: unknown): string | undefined => {
    let check = compiled.get(pointer);
    if (!check) compiled.set(pointer, (check = ajv.compile({ $ref: `${ID}${pointer}` })));
    if (check(body)) return undefined;
    return (check.errors ?? [])
      .slice(0, 3)
      .map((error) => `${error.instancePath || '/'} ${error.message}`)
      .join('; ');
  };

  return {
    document,
    mediaTypes: (template, method, status) => Object.keys(response(template, method, status).node?.content ?? {}),
    validate(template, method, status, mediaType, body) {
      const { at, node } = response(template, method, status);
      if (!node?.content?.[mediaType]?.schema) return `the document gives no ${mediaType} schema for ${method} ${template} ${status}`;
      return run(`${at}/content/${pointerEscape(mediaType)}/schema`, body);
    },
    validateComponent: (name, body) =>
      document.components?.schemas?.[name]
        ? run(`#/components/schemas/${pointerEscape(name)}`, body)
        : `the document has no ${name} schema`,
  };
}
