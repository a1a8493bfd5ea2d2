/**
 * @module Reading a facts file, the one way every way in reads it (start-up, the SIGHUP reload, the
 * serverless entries, `check`, `registry`): read as text and checked (check.ts), or the shipped
 * sample when no file is named. A file that cannot be read is refused in one wording. The check (and the
 * schemas and parsers it uses) is loaded only when a file is checked: the bundles' sample was checked at build.
 */
import { StartupError } from '../util/startup-error.ts';
import type { Product } from './schema.ts';
import sample from './sample-facts.json' with { type: 'json' };

/** Reads a file as UTF-8 text: each runtime passes its own. */
export type ReadTextFile = (path: string) => Promise<string>;

/** Who named the file: the FACTS_FILE variable, or a command's argument (`check FILE`). */
export type NamedBy = 'FACTS_FILE' | 'argument';

/** "ENOENT: no such file or directory, open 'x.json'" without the system call and the repeated path. */
const reasonOf = (error: unknown) => (error as Error).message.replace(/, \w+( '.*')?$/, '');

/** Reads and checks a facts file; a refusal is a StartupError naming every bad field and its fix. */
export async function readFactsFile(path: string, readTextFile: ReadTextFile, namedBy: NamedBy = 'FACTS_FILE'): Promise<Product> {
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (error) {
    const named = namedBy === 'FACTS_FILE' ? `FACTS_FILE=${JSON.stringify(path)}` : `Facts file ${path}`;
    throw new StartupError(`${named} cannot be read (${reasonOf(error)}): check the path to the facts JSON file.`);
  }
  return (await import('./check.ts')).parseFacts(path, text);
}

/** The shipped sample as `checkFacts` returned it, put in by the start-up bundles' build (scripts/bundle.mjs); absent in the sources. */
declare const CHECKED_SAMPLE_FACTS: Product | undefined;

/** The facts served: those of FACTS_FILE when it is set, else the shipped sample (checked when the bundle was built, or now). */
export async function readFacts(factsFile: string | undefined, readTextFile: ReadTextFile): Promise<Product> {
  if (factsFile) return readFactsFile(factsFile, readTextFile);
  if (typeof CHECKED_SAMPLE_FACTS !== 'undefined') return CHECKED_SAMPLE_FACTS;
  return (await import('./check.ts')).checkFacts('(shipped sample)', sample);
}
