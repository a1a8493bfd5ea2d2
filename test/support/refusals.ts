/**
 * The refusals of a setting on two ways in, for the rule modules' tests: the environment's
 * (`loadConfig`) and `createHandler`'s, each a StartupError message, and the refusal of a facts file. `problemOf` cuts the words after
 * `NAME="value": `, which every way in must share.
 */
import { expect } from 'vitest';
import type { HandlerOptions } from '../../src/handler.ts';
import { loadConfig } from '../../src/startup/config.ts';
import { parseFacts } from '../../src/facts/check.ts';
import { StartupError } from '../../src/util/startup-error.ts';
import { makeHandler } from './handler.ts';

/** The message the environment `env` is refused with (the test fails when it is accepted). */
export function environmentRefusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(StartupError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

/** The message createHandler refuses `options` with (over the test handler's defaults). */
export async function optionRefusal(options: Partial<HandlerOptions>): Promise<string> {
  const refused = await makeHandler(options).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (refused === undefined) throw new Error(`createHandler accepted ${JSON.stringify(options)}`);
  expect(refused).toBeInstanceOf(StartupError);
  return (refused as Error).message;
}

/** The refusal's words after `name="value": ` (or `name=value: `), checking the line names the setting. */
export function problemOf(message: string, name: string): string {
  const line = message.split('\n').find((text) => text.startsWith(`  ${name}=`));
  expect(line, `a line naming ${name} in:\n${message}`).toBeDefined();
  expect(message.startsWith('Invalid configuration:\n')).toBe(true);
  // The value is echoed as JSON: a string in quotes (with its own `: ` perhaps), anything else bare.
  const words = /^ {2}[^=]+=(?:"(?:[^"\\]|\\.)*"|[^:]*): (.*)$/.exec(line!)?.[1];
  expect(words, line).toBeDefined();
  return words!;
}

/** The message the facts file holding `facts` is refused with at start-up (the test fails when it is accepted). */
export function factsRefusal(facts: unknown): string {
  try {
    parseFacts('facts.json', JSON.stringify(facts));
  } catch (error) {
    expect(error).toBeInstanceOf(StartupError);
    return (error as Error).message;
  }
  throw new Error('the facts were accepted');
}
