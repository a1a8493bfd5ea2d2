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

/** Where a command writes: stdout, stderr, and whether stdout is a person's terminal in colour. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  color: boolean;
}

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
    run: ([file], _options, io) => check(file!, io),
  },
  verify: {
    args: ['URL'],
    options: { json: { type: 'boolean', help: 'print the report as JSON' } },
    summary: 'check a running deployment against the contract (at most 60 requests, reads only)',
    details: 'Exit 0 when every check passes; 1 when one fails or the deployment cannot be reached, with the reason in one line.',
    run: ([url], { json }, io) => verify(url!, json === true, io),
  },
  registry: {
    args: [],
    options: { base: { type: 'string', help: "the deployment's public base URL (default: PUBLIC_BASE_URL)" } },
    summary: 'print the MCP Registry server.json of a deployment, for mcp-publisher publish',
    details: 'The facts are those of FACTS_FILE, or the shipped sample. Exit 2 without a base URL.',
    run: async (_args, { base }, io) =>
      (await import('./discovery/registry.ts')).registryCommand(base as string | undefined, process.env, io),
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
  let parsed;
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

/** Reads the file and checks it with the facts module alone: no configuration, handler or server. */
async function check(file: string, io: Io): Promise<number> {
  const [{ readFile }, { parseFacts }, { StartupError }] = await Promise.all([
    import('node:fs/promises'),
    import('./facts/check.ts'),
    import('./util/startup-error.ts'),
  ]);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    // "ENOENT: no such file or directory, open 'x.json'" without the system call and the repeated path.
    const reason = (error as Error).message.replace(/, \w+( '.*')?$/, '');
    io.err(`Facts file ${file} cannot be read (${reason}): check the path to the facts JSON file.`);
    return 1;
  }
  try {
    const facts = parseFacts(file, text);
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

async function verify(url: string, json: boolean, io: Io): Promise<number> {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    io.err(`product-discovery verify: ${JSON.stringify(url)} is not an http or https URL, e.g. https://api.example.com`);
    return 2;
  }
  const [{ formatReport, reportJson, verify: run }, { StartupError }] = await Promise.all([
    import('./verify/index.ts'),
    import('./util/startup-error.ts'),
  ]);
  let report;
  try {
    report = await run(url);
  } catch (error) {
    // A package verify needs is not installed: the message names it and the install command.
    if (error instanceof StartupError) {
      io.err(error.message);
      return 2;
    }
    io.err(`product-discovery verify: cannot reach ${url}: ${unreachable(error, new URL(url))}`);
    return 1;
  }
  io.out(json ? reportJson(report) : formatReport(report, { color: io.color }));
  return report.ok ? 0 : 1;
}

interface Failure {
  name?: string;
  code?: string;
  message?: string;
  cause?: unknown;
  errors?: unknown[];
}

/** The innermost error of fetch's `TypeError: fetch failed` (undici puts the reason in `cause`). */
function rootCause(error: unknown): Failure {
  let found = error as Failure;
  for (let depth = 0; depth < 5 && found?.cause && typeof found.cause === 'object'; depth++) found = found.cause as Failure;
  // Both addresses of a name (::1 and 127.0.0.1) refused: an AggregateError of one code each.
  if (!found?.code && found?.errors?.length) found = found.errors[0] as Failure;
  return found ?? {};
}

/** OpenSSL's own text (`80...:error:0A00010B:SSL routines:...:wrong version number:file:line:`) cut to its reason, on one line. */
const openSslReason = (message: string) => /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1] ?? message.split('\n')[0]!.trim();

/** Why a request to `url` got no answer, in one line with what to check. */
export function unreachable(error: unknown, url: URL): string {
  const { name, code = '', message = '' } = rootCause(error);
  const host = url.hostname;
  const where = `${host} port ${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
  const tls = /^(CERT_|ERR_TLS_|ERR_SSL_)|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|^HOSTNAME_MISMATCH$/.test(code);
  switch (true) {
    case code === 'ECONNREFUSED':
      return `connection refused by ${where}: nothing listens there; check the port and that the service runs`;
    case code === 'ENOTFOUND':
      return `no such host ${JSON.stringify(host)} (DNS); check the host name`;
    case code === 'EAI_AGAIN':
      return `the name ${JSON.stringify(host)} could not be resolved now (DNS, EAI_AGAIN); check the network and retry`;
    case ['UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT'].includes(code) || name === 'TimeoutError' || name === 'AbortError':
      return `no answer from ${where} in time (timeout); check the address, the port and any firewall between`;
    // OpenSSL's reading of a plain-HTTP answer where a TLS record was due.
    case code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length too long|http request/i.test(message):
      return `${where} does not speak TLS (a plain-HTTP port?); use http://${url.host} for a service without TLS, or the port that serves https`;
    case tls || /certificate|TLS|SSL/i.test(message):
      return `TLS failure (${code || name}: ${openSslReason(message)}); check the certificate, or use http:// for a service without TLS`;
    case code === 'ECONNRESET' || code === 'UND_ERR_SOCKET':
      return `the connection was closed before an answer (${code}); check that ${where} speaks HTTP`;
    case code === 'EHOSTUNREACH' || code === 'ENETUNREACH':
      return `${host} cannot be reached from this machine (${code}); check the network and the address`;
    default:
      return `${code || name || 'error'}: ${message.split('\n')[0]}`;
  }
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
