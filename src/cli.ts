/**
 * @module The `product-discovery` command: `serve` runs the Node entry; `check FILE` refuses or
 * accepts a facts file exactly as start-up does, so a product team can run it in its own CI;
 * `verify URL` checks a running deployment against the contract; `registry` prints its MCP Registry
 * server.json. Each loads only what it needs.
 * A command is one entry of `COMMANDS`: its arguments, options, one-line summary and `run`.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pkg from '../package.json' with { type: 'json' };
import type { Io } from './cli/io.ts';

interface Option {
  type: 'boolean' | 'string';
  short?: string;
  /** The line the command's help prints for it. */
  help: string;
}

export interface Command {
  /** The positional arguments, all required, as the usage names them (e.g. ['URL']). */
  args: string[];
  /** Options besides --help, by long name. */
  options?: Record<string, Option>;
  /** One line for the list of commands. */
  summary: string;
  /** What the command's --help adds below its usage line. */
  details?: string;
  run(args: string[], options: Record<string, string | boolean | undefined>, io: Io): Promise<number>;
}

const HELP: Option = { type: 'boolean', short: 'h', help: 'print this help' };

export const COMMANDS: Record<string, Command> = {
  serve: {
    args: [],
    summary: 'serve the API on Node (configuration from the environment: PORT, HOST, FACTS_FILE, ...)',
    details: 'Stops cleanly on SIGINT or SIGTERM after the requests in flight; SIGHUP reloads FACTS_FILE.',
    async run() {
      await import('./entry/node.ts');
      return 0;
    },
  },
  check: {
    args: ['FILE'],
    summary: 'check a facts file as start-up does; exit 0 when it would be served, 1 when not',
    details: 'Prints every refused field with its fix, so a product team can run it in its own CI.',
    run: async ([file], _options, io) => (await import('./cli/check.ts')).check(file!, io),
  },
  verify: {
    args: ['URL'],
    options: { json: { type: 'boolean', help: 'print the report as JSON' } },
    summary: 'check a running deployment against the contract (at most 60 requests, reads only)',
    details: 'Exit 0 when every check passes; 1 when one fails or the deployment cannot be reached, with the reason in one line.',
    run: async ([url], { json }, io) => (await import('./cli/verify.ts')).verify(url!, json === true, io),
  },
  registry: {
    args: [],
    options: { base: { type: 'string', help: "the deployment's public base URL (default: PUBLIC_BASE_URL)" } },
    summary: 'print the MCP Registry server.json of a deployment, for mcp-publisher publish',
    details: 'The facts are those of FACTS_FILE, or the shipped sample. Exit 2 without a base URL.',
    run: async (_args, { base }, io) => (await import('./cli/registry.ts')).registry(base as string | undefined, process.env, io),
  },
};

const synopsis = (name: string, { args, options = {} }: Command) =>
  [
    `product-discovery ${name}`,
    ...args,
    ...Object.entries(options).map(([long, { type }]) => `[--${long}${type === 'string' ? ' VALUE' : ''}]`),
  ].join(' ');

export function usage(): string {
  const lines: [string, string][] = [
    ...Object.entries(COMMANDS).map(([name, command]): [string, string] => [synopsis(name, command), command.summary]),
    ['product-discovery COMMAND --help', "print a command's help"],
    ['product-discovery --version, -v', 'print the version'],
    ['product-discovery --help, -h', 'print this help'],
  ];
  const width = Math.max(...lines.map(([left]) => left.length)) + 2;
  return `product-discovery ${pkg.version}\n\nUsage:\n${lines.map(([left, right]) => `  ${left.padEnd(width)}${right}`).join('\n')}`;
}

export function commandUsage(name: string): string {
  const command = COMMANDS[name]!;
  const options = Object.entries({ ...command.options, help: HELP }).map(([long, { short, help }]) => [
    `${short ? `-${short}, ` : ''}--${long}`,
    help,
  ]);
  const width = Math.max(...options.map(([left]) => left!.length)) + 2;
  return [
    `Usage: ${synopsis(name, command)}`,
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    ...(command.details ? [command.details] : []),
    '',
    'Options:',
    ...options.map(([left, right]) => `  ${left!.padEnd(width)}${right}`),
  ].join('\n');
}

type Parsed = { values: Record<string, string | boolean | undefined>; args: string[] } | { error: string };

/** The command's options and arguments, or what is wrong with them in a few words. */
export function parseCommand(name: string, argv: string[]): Parsed {
  const command = COMMANDS[name]!;
  const options = Object.fromEntries(
    Object.entries({ ...command.options, help: HELP }).map(([long, { type, short }]) => [long, short ? { type, short } : { type }]),
  );
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof options; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (!code?.startsWith('ERR_PARSE_ARGS_')) throw error;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return { error: `unknown option ${/'([^']*)'/.exec(message)?.[1] ?? message}` };
    return { error: `${message.split('. ')[0]!.replace(/^Option/, 'option')}` };
  }
  const { values, positionals } = parsed;
  if (values.help) return { values, args: positionals };
  if (positionals.length < command.args.length) return { error: `missing ${command.args.slice(positionals.length).join(' ')}` };
  if (positionals.length > command.args.length) return { error: `unexpected argument ${JSON.stringify(positionals[command.args.length])}` };
  return { values, args: positionals };
}

const CONSOLE: Io = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  // Colour only for a person at a terminal, and never when NO_COLOR is set (no-color.org).
  color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
};

/** Runs the command line (without `node` and the script); resolves to the exit code. */
export async function main(argv: string[], io: Io = CONSOLE): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help') return main(rest.length > 0 ? [rest[0]!, '--help'] : ['--help'], io);
  if (name === undefined || name === '--help' || name === '-h') {
    io.out(usage());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(pkg.version);
    return 0;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    const wrong = name.startsWith('-') ? `unknown option ${name}` : `unknown command ${JSON.stringify(name)}`;
    io.err(`product-discovery: ${wrong}; the commands are ${Object.keys(COMMANDS).join(', ')} (see product-discovery --help)`);
    return 2;
  }
  const parsed = parseCommand(name, rest);
  if ('error' in parsed) {
    io.err(`product-discovery ${name}: ${parsed.error} (see product-discovery ${name} --help)`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(commandUsage(name));
    return 0;
  }
  return COMMANDS[name]!.run(parsed.args, parsed.values, io);
}

// Run as the program (`node dist/cli.js`, `node --import tsx src/cli.ts`); bin/product-discovery.js calls `main` itself.
const script = process.argv[1];
if (script && pathToFileURL(realpathIf(script)).href === import.meta.url) process.exitCode = await main(process.argv.slice(2));

function realpathIf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
