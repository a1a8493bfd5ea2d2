/**
 * @module Part of `npm run build`: writes the facts file's JSON Schema into the package
 * (dist/schemas/facts.json, or the path given), so an editor validates a facts file from an
 * installed package by path.
 * No `$id`: the file has no base URL; a running service serves it with one at {base}/schemas/facts.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { factsJsonSchema } from '../src/api/facts-json-schema.ts';

const out = resolve(process.argv[2] ?? resolve(import.meta.dirname, '../dist/schemas/facts.json'));
mkdirSync(resolve(out, '..'), { recursive: true });
writeFileSync(out, `${JSON.stringify(factsJsonSchema(), null, 2)}\n`);
