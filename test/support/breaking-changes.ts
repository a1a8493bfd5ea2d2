/**
 * Finds the changes from one OpenAPI 3.1 document to the next that break an existing client:
 * a removed path, operation, response, response field or enum value; a changed type; a response
 * field no longer required; a new required parameter or request field. Additions pass, a response
 * widened to `anyOf`/`oneOf` included when one branch keeps everything the old schema promised.
 */

type Schema = Record<string, any>;
type Doc = { paths: Record<string, Record<string, any>>; components?: Record<string, Record<string, any>> };

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'];

function resolve(doc: Doc, node: any): any {
  let current = node;
  for (let depth = 0; current?.$ref && depth < 20; depth++) {
    const [, section, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(current.$ref) ?? [];
    current = section && name ? doc.components?.[section]?.[name] : undefined;
  }
  return current;
}

function types(schema: Schema): string[] {
  if (schema.const !== undefined) return [typeof schema.const === 'string' ? 'string' : typeof schema.const];
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

const isUnion = (schema: Schema) => Boolean(schema.anyOf ?? schema.oneOf);
const branchesOf = (schema: Schema): any[] => schema.anyOf ?? schema.oneOf ?? [schema];

/**
 * `anyOf`/`oneOf` on either side: every shape the old schema allowed (each of its branches) must
 * still have a branch of the new one that keeps it; the changes of the closest branch are reported.
 */
function matchBranches(before: Schema, after: Schema, compare: (was: any, is: any, changes: string[]) => void): string[] {
  return branchesOf(before).flatMap((was) =>
    branchesOf(after)
      .map((is) => {
        const changes: string[] = [];
        compare(was, is, changes);
        return changes;
      })
      .reduce((best, changes) => (changes.length < best.length ? changes : best)),
  );
}

/** Response direction: everything a client could read before must still be there, the same way. */
function compareResponseSchema(oldDoc: Doc, newDoc: Doc, oldNode: any, newNode: any, at: string, seen: Set<string>, out: string[]) {
  const before: Schema | undefined = resolve(oldDoc, oldNode);
  const after: Schema | undefined = resolve(newDoc, newNode);
  if (!before) return;
  if (!after) return void out.push(`${at}: schema removed`);
  if (isUnion(before) || isUnion(after)) {
    out.push(
      ...matchBranches(before, after, (was, is, changes) => compareResponseSchema(oldDoc, newDoc, was, is, at, new Set(seen), changes)),
    );
    return;
  }

  const key = `${oldNode?.$ref ?? ''}|${newNode?.$ref ?? ''}|${at}`;
  if (seen.has(key)) return;
  seen.add(key);

  const [typesBefore, typesAfter] = [types(before), types(after)];
  if (typesBefore.length > 0 && typesAfter.join() !== typesBefore.join()) {
    out.push(`${at}: type changed from ${typesBefore.join('|')} to ${typesAfter.join('|') || 'any'}`);
  }
  if (before.const !== undefined && before.const !== after.const)
    out.push(`${at}: constant changed from ${before.const} to ${after.const}`);
  for (const value of before.enum ?? []) {
    if (!(after.enum ?? []).includes(value)) out.push(`${at}: enum value ${JSON.stringify(value)} removed`);
  }
  for (const [name, property] of Object.entries<any>(before.properties ?? {})) {
    const next = after.properties?.[name];
    if (next === undefined) out.push(`${at}.${name}: response field removed`);
    else compareResponseSchema(oldDoc, newDoc, property, next, `${at}.${name}`, seen, out);
  }
  for (const name of before.required ?? []) {
    if (!(after.required ?? []).includes(name)) out.push(`${at}.${name}: response field no longer required`);
  }
  if (before.items) compareResponseSchema(oldDoc, newDoc, before.items, after.items, `${at}[]`, seen, out);
}

/** Request direction: nothing a client did not send before may become required. */
function compareRequestSchema(oldDoc: Doc, newDoc: Doc, oldNode: any, newNode: any, at: string, out: string[]) {
  const before: Schema = resolve(oldDoc, oldNode) ?? {};
  const after: Schema | undefined = resolve(newDoc, newNode);
  if (!after) return;
  if (isUnion(before) || isUnion(after)) {
    out.push(...matchBranches(before, after, (was, is, changes) => compareRequestSchema(oldDoc, newDoc, was, is, at, changes)));
    return;
  }
  for (const name of after.required ?? []) {
    if (!(before.required ?? []).includes(name)) out.push(`${at}.${name}: new required request field`);
  }
  const [typesBefore, typesAfter] = [types(before), types(after)];
  if (typesBefore.length > 0 && typesAfter.length > 0 && typesAfter.join() !== typesBefore.join()) {
    out.push(`${at}: request type changed from ${typesBefore.join('|')} to ${typesAfter.join('|')}`);
  }
  for (const [name, property] of Object.entries<any>(after.properties ?? {})) {
    if (before.properties?.[name]) compareRequestSchema(oldDoc, newDoc, before.properties[name], property, `${at}.${name}`, out);
  }
}

export function breakingChanges(oldDoc: Doc, newDoc: Doc): string[] {
  const out: string[] = [];
  for (const [path, operations] of Object.entries(oldDoc.paths)) {
    const nextOperations = newDoc.paths[path];
    if (!nextOperations) {
      out.push(`${path}: path removed`);
      continue;
    }
    for (const method of METHODS.filter((name) => operations[name])) {
      const at = `${method.toUpperCase()} ${path}`;
      const before = operations[method];
      const after = nextOperations[method];
      if (!after) {
        out.push(`${at}: operation removed`);
        continue;
      }
      const oldParams = new Set((before.parameters ?? []).map((p: any) => `${resolve(oldDoc, p).in}:${resolve(oldDoc, p).name}`));
      for (const parameter of (after.parameters ?? []).map((p: any) => resolve(newDoc, p))) {
        if (parameter.required && !oldParams.has(`${parameter.in}:${parameter.name}`)) {
          out.push(`${at}: new required ${parameter.in} parameter ${parameter.name}`);
        }
      }
      const [oldBody, newBody] = [resolve(oldDoc, before.requestBody), resolve(newDoc, after.requestBody)];
      if (newBody?.required && !oldBody) out.push(`${at}: new required request body`);
      for (const [mediaType, content] of Object.entries<any>(newBody?.content ?? {})) {
        compareRequestSchema(oldDoc, newDoc, oldBody?.content?.[mediaType]?.schema, content.schema, `${at} request`, out);
      }
      for (const [status, response] of Object.entries<any>(before.responses ?? {})) {
        const next = after.responses?.[status];
        if (!next) {
          // An error the service no longer answers (health is no longer rate limited) breaks no client.
          if (Number(status) < 400) out.push(`${at} ${status}: response removed`);
          continue;
        }
        const [was, is] = [resolve(oldDoc, response), resolve(newDoc, next)];
        for (const header of Object.keys(was.headers ?? {})) {
          if (!is.headers?.[header]) out.push(`${at} ${status}: header ${header} removed`);
        }
        for (const [mediaType, content] of Object.entries<any>(was.content ?? {})) {
          const nextContent = is.content?.[mediaType];
          if (!nextContent) out.push(`${at} ${status}: media type ${mediaType} removed`);
          else compareResponseSchema(oldDoc, newDoc, content.schema, nextContent.schema, `${at} ${status}`, new Set(), out);
        }
      }
    }
  }
  return out;
}
