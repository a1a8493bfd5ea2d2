/**
 * @module `product-discovery check FILE`: reads and checks a facts file exactly as start-up does,
 * with the facts modules alone (no configuration, handler or server), so a product team can run it
 * in its own CI. Exit 0 when the file would be served, 1 with every refused field when not.
 */
import { readFile } from 'node:fs/promises';
import { readFactsFile } from '../facts/read.ts';
import { StartupError } from '../util/startup-error.ts';
import type { Io } from './io.ts';

export async function check(file: string, io: Io): Promise<number> {
  try {
    const facts = await readFactsFile(file, (path) => readFile(path, 'utf8'), 'argument');
    io.out(
      `${file} would be served: ${facts.product.name}, ${facts.resources.length} resources, ${facts.startOptions.length} start options.`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    io.err(error.message);
    return 1;
  }
}
