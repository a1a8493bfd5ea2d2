/**
 * The `product-discovery` command line, run in this process through `main`: usage and --help on
 * every command (exit 0), a wrong command line named in one line (exit 2), and `check FILE`
 * accepting a facts file (exit 0) or printing every refused field (exit 1), in words about the file.
 * Why `verify` cannot reach a deployment is worded from the error fetch gives.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS, main, unreachable } from '../src/cli.ts';
import pkg from '../package.json' with { type: 'json' };
import { ROOT } from './support/entries.ts';

const dir = mkdtempSync(join(tmpdir(), 'cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command line; what it wrote to stdout and stderr, and its exit code. */
async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { out: (text) => (stdout += `${text}\n`), err: (text) => (stderr += `${text}\n`), color: false });
  return { code, stdout, stderr };
}

describe('usage', () => {
  it.each([[], ['--help'], ['-h'], ['help']])('%j prints every command and exits 0', async (...argv) => {
    const { code, stdout, stderr } = await run(...argv);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(new RegExp(`^product-discovery ${pkg.version.replaceAll('.', '\\.')}\n\nUsage:\n`));
    for (const name of Object.keys(COMMANDS)) expect(stdout).toMatch(new RegExp(`^  product-discovery ${name}\\b`, 'm'));
    expect(stdout).toContain('product-discovery verify URL [--json]');
  });

  it('prints the version with --version and -v', async () => {
    for (const flag of ['--version', '-v']) expect(await run(flag)).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it.each(Object.keys(COMMANDS))("`%s --help`, `%s -h` and `help %s` print the command's usage and exit 0", async (name) => {
    for (const argv of [
      [name, '--help'],
      [name, '-h'],
      ['help', name],
      [name, 'extra', 'arguments', '--help'],
    ]) {
      const { code, stdout, stderr } = await run(...argv);
      expect(code, argv.join(' ')).toBe(0);
      expect(stderr).toBe('');
      expect(stdout).toMatch(new RegExp(`^Usage: product-discovery ${name}\\b`));
      expect(stdout).toMatch(/\n  -h, --help +print this help\n$/);
    }
  });

  it("lists a command's options in its help", async () => {
    expect((await run('verify', '--help')).stdout).toMatch(/\n  --json +print the report as JSON\n/);
  });
});

describe('a wrong command line: one line naming what is wrong and where to look, exit 2', () => {
  it.each([
    [['verify', '--jsn', 'http://127.0.0.1:1'], 'product-discovery verify: unknown option --jsn (see product-discovery verify --help)'],
    [['check', '-x', 'facts.json'], 'product-discovery check: unknown option -x (see product-discovery check --help)'],
    [['serve', '--port', '80'], 'product-discovery serve: unknown option --port (see product-discovery serve --help)'],
    [
      ['verify', 'https://a.example', 'https://b.example'],
      'product-discovery verify: unexpected argument "https://b.example" (see product-discovery verify --help)',
    ],
    [['serve', 'now'], 'product-discovery serve: unexpected argument "now" (see product-discovery serve --help)'],
    [['check'], 'product-discovery check: missing FILE (see product-discovery check --help)'],
    [['verify', '--json'], 'product-discovery verify: missing URL (see product-discovery verify --help)'],
    [
      ['verify', '--json=yes', 'https://a.example'],
      "product-discovery verify: option '--json' does not take an argument (see product-discovery verify --help)",
    ],
    [['verify', 'not-a-url'], 'product-discovery verify: "not-a-url" is not an http or https URL, e.g. https://api.example.com'],
    [
      ['verify', 'ftp://a.example'],
      'product-discovery verify: "ftp://a.example" is not an http or https URL, e.g. https://api.example.com',
    ],
    [
      ['vrify'],
      'product-discovery: unknown command "vrify"; the commands are serve, check, verify, registry (see product-discovery --help)',
    ],
    [
      ['help', 'vrify'],
      'product-discovery: unknown command "vrify"; the commands are serve, check, verify, registry (see product-discovery --help)',
    ],
    [
      ['--frob'],
      'product-discovery: unknown option --frob; the commands are serve, check, verify, registry (see product-discovery --help)',
    ],
  ])('%j', async (argv, line) => {
    expect(await run(...argv)).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
  });
});

describe('check FILE', () => {
  const sample = () => JSON.parse(readFileSync(join(ROOT, 'src/facts/sample-facts.json'), 'utf8'));

  async function check(name: string, text: string) {
    const path = join(dir, name);
    writeFileSync(path, text);
    return { path, ...(await run('check', path)) };
  }

  it('exits 0 for a file start-up would serve, $schema and byte order mark included', async () => {
    const text = `\uFEFF${JSON.stringify({ $schema: './node_modules/product-discovery-api/dist/schemas/facts.json', ...sample() }, null, 2)}`;
    const { path, code, stdout, stderr } = await check('good.json', text);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(`${path} would be served: Lumen Galleries, 9 resources, 4 start options.\n`);
  });

  it('prints every refused field and exits 1', async () => {
    const facts = sample();
    facts.product.reviewdOn = '2026-02-31';
    delete facts.product.reviewedOn;
    facts.resources[1].url = 'https://docs.example.com/?access_token=abc';
    facts.startOptions[1].id = facts.startOptions[0].id;
    const { path, code, stdout, stderr } = await check('bad.json', JSON.stringify(facts, null, 2));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      [
        `Facts file ${path} was refused:`,
        '  product.reviewdOn: unknown field "reviewdOn"; did you mean "reviewedOn"?',
        '  product.reviewedOn: required field "reviewedOn" is missing; add it',
        '  startOptions[1].id: id "read-the-docs" is already used by startOptions[0]; give each start option its own "id"',
        '  resources[1].url: URL query parameter "access_token" may carry a credential; link to a public page without it',
        '',
      ].join('\n'),
    );
  });

  it.each([
    ['src/facts/sample-facts.json', 3, "creating a gallery (product.actionsNeedingApproval[0]), which needs a person's approval"],
    ['test/fixtures/notebook-facts.json', 2, "starting a paid plan (product.actionsNeedingApproval[2]), which needs a person's approval"],
  ])('refuses, in %s, a start option that performs an action needing approval marked as needing none', async (file, index, why) => {
    const facts = JSON.parse(readFileSync(join(ROOT, file), 'utf8'));
    facts.startOptions[index].requiresHumanApproval = false;
    const { path, code, stdout, stderr } = await check(`unapproved-${index}.json`, JSON.stringify(facts));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `Facts file ${path} was refused:\n  startOptions[${index}].requiresHumanApproval: false, but the option performs ${why}; set it to true\n`,
    );
  });

  it.each([
    ['2026-13-01', 'month 13'],
    ['2026-00-10', 'month 00'],
    ['2026-01-32', 'day 32'],
  ])('names the impossible date %s in one line and exits 1', async (date, what) => {
    const facts = sample();
    facts.product.reviewedOn = date;
    const { path, code, stdout, stderr } = await check(`date-${date}.json`, JSON.stringify(facts));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `Facts file ${path} was refused:\n` +
        `  product.reviewedOn: "${date}" is not a date that exists (there is no ${what}); give a real calendar date (YYYY-MM-DD)\n`,
    );
  });

  it('names the line and column of a syntax error and exits 1', async () => {
    const { path, code, stderr } = await check('broken.json', '{\n  "product": {\n    "name": "Lumen",\n  }\n}\n');
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Facts file ${path} is not valid JSON at line 4, column 3: expected a member name in double quotes (a comma before "}" is not allowed).\n`,
    );
  });

  it('speaks of the file, not of a variable, when it cannot be read', async () => {
    const missing = join(dir, 'missing.json');
    expect(await run('check', missing)).toEqual({
      code: 1,
      stdout: '',
      stderr: `Facts file ${missing} cannot be read (ENOENT: no such file or directory): check the path to the facts JSON file.\n`,
    });
    const { code, stderr } = await run('check', dir);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Facts file ${dir} cannot be read (EISDIR: illegal operation on a directory): check the path to the facts JSON file.\n`,
    );
  });
});

describe("why verify cannot reach a deployment, from fetch's error", () => {
  // The shape undici gives: TypeError('fetch failed') with the system or undici error as its cause.
  const failed = (cause: object) => new TypeError('fetch failed', { cause });
  const coded = (code: string, message = code) => Object.assign(new Error(message), { code });
  const url = new URL('https://api.example.com');

  it.each([
    [coded('ECONNREFUSED'), /^connection refused by api\.example\.com port 443: nothing listens there/],
    [coded('ENOTFOUND', 'getaddrinfo ENOTFOUND api.example.com'), /^no such host "api\.example\.com" \(DNS\)/],
    [coded('EAI_AGAIN'), /^the name "api\.example\.com" could not be resolved now \(DNS, EAI_AGAIN\)/],
    [coded('UND_ERR_CONNECT_TIMEOUT'), /^no answer from api\.example\.com port 443 in time \(timeout\)/],
    [
      coded('CERT_HAS_EXPIRED', 'certificate has expired'),
      /^TLS failure \(CERT_HAS_EXPIRED: certificate has expired\); check the certificate/,
    ],
    [
      coded('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"),
      /^TLS failure \(ERR_TLS_CERT_ALTNAME_INVALID: /,
    ],
    [coded('ECONNRESET'), /^the connection was closed before an answer \(ECONNRESET\)/],
    [
      // What Node's OpenSSL says of a plain-HTTP answer to https://, seen against a local server.
      coded(
        'ERR_SSL_WRONG_VERSION_NUMBER',
        '809C050F997F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n',
      ),
      /^api\.example\.com port 443 does not speak TLS \(a plain-HTTP port\?\); use http:\/\/api\.example\.com for a service without TLS[^\n]*$/,
    ],
    [
      coded(
        'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
        '80:error:0A000410:SSL routines:ssl3_read_bytes:sslv3 alert handshake failure:ssl.c:1:\n',
      ),
      /^TLS failure \(ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: sslv3 alert handshake failure\); check the certificate[^\n]*$/,
    ],
  ])('%s', (cause, reason) => {
    expect(unreachable(failed(cause), url)).toMatch(reason);
  });

  it('reads the first of both addresses refused (an AggregateError) and a timeout abort', () => {
    const both = Object.assign(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]), { code: undefined });
    expect(unreachable(failed(both), new URL('http://localhost:8787'))).toMatch(/^connection refused by localhost port 8787/);
    expect(unreachable(new DOMException('The operation was aborted due to timeout', 'TimeoutError'), url)).toMatch(/\(timeout\)/);
  });

  it('falls back to the code and the first line of the message', () => {
    expect(unreachable(failed(coded('UND_ERR_HEADERS_OVERFLOW', 'Headers Overflow Error\nmore')), url)).toBe(
      'UND_ERR_HEADERS_OVERFLOW: Headers Overflow Error',
    );
  });
});
