/**
 * The `product-discovery` command table, run in this process through `main`: usage and --help on
 * every command (exit 0), a wrong command line named in one line (exit 2). Each command's own
 * behaviour is tested beside it, in test/cli/.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS, main } from '../src/cli.ts';
import pkg from '../package.json' with { type: 'json' };

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
      expect(stdout).toMatch(/\n {2}-h, --help +print this help\n$/);
    }
  });

  it("lists a command's options in its help", async () => {
    expect((await run('verify', '--help')).stdout).toMatch(/\n {2}--json +print the report as JSON\n/);
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
