/**
 * Every `sh` block of README.md and docs/ run as written, in the repository. A command that starts
 * the service (or an example app, or the bin's `serve`) is started on a free port (in place of the
 * `PORT` it names, or of 8787 or 3000) and waited for until health answers; the commands after it run
 * in one bash (`-euo pipefail`) with that port in place of the one they name, and must exit 0. A
 * block that starts nothing talks to one Node server started here. `npm ci` and `npm test` are left
 * out: they are the commands that installed this checkout and run this suite (.ci/run). Files a
 * block creates in the repository are removed after it. Some blocks' output is checked as well.
 */
import { execFile as execFileCallback, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodeBlock, codeBlocks, commandsOf, markdownFiles, SERVES } from '../support/docs.ts';
import { ROOT, startEntry, type RunningEntry } from '../support/entries.ts';
import { withBuildLock } from '../support/package.ts';
import { freePort } from '../support/net.ts';

const execFile = promisify(execFileCallback);
const BLOCKS = markdownFiles().flatMap((file) => codeBlocks(file).filter((block) => block.lang === 'sh'));
const PATH = `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}`;

/** What each block's commands printed, and what the servers it started printed, by the block's text. */
const outputs = new Map<string, string>();
const served = new Map<string, string>();

interface Server {
  port: number;
  stop(): Promise<void>;
}

/** Starts one serving command in its own process group and waits until its health answers. */
async function serve(command: string, port: number, log: (output: string) => void): Promise<Server> {
  const child = spawn('bash', ['-c', command.replace(/\bPORT=\d+/, `PORT=${port}`)], {
    cwd: ROOT,
    // `deno serve` (Deno Deploy's entry) takes its address from DENO_SERVE_ADDRESS, not PORT.
    env: { ...process.env, PATH, PORT: String(port), HOST: '127.0.0.1', DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}`, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode} before serving:\n${output}`);
    const health = await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => undefined);
    if (health?.status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${command} did not serve within 90 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    port,
    async stop() {
      await stop();
      log(output);
    },
  };
}

/** The files in the repository that git does not know and does not ignore. */
async function untracked(): Promise<string[]> {
  const { stdout } = await execFile('git', ['ls-files', '--others', '--exclude-standard'], { cwd: ROOT });
  return stdout.split('\n').filter(Boolean);
}

describe('the shell examples of README.md and docs/', () => {
  let shared: RunningEntry;
  beforeAll(async () => {
    shared = await startEntry('node', { RATE_LIMIT_QUOTA: '100000' });
  }, 60_000);
  afterAll(async () => {
    await shared?.stop();
  });

  it('are found, and every one starts the service or talks to it', () => {
    expect(BLOCKS.length).toBeGreaterThan(10);
    for (const block of BLOCKS) expect(commandsOf(block.text).length, `${block.file}:\n${block.text}`).toBeGreaterThan(0);
  });

  async function runBlock(block: CodeBlock) {
    const before = new Set(await untracked());
    const servers: Server[] = [];
    // The port each command names (a PORT=, or the default of what it starts) -> the port it runs on here.
    const ports = new Map<string, string>([['8787', new URL(shared.url).port]]);
    let script: string[] = [];
    const run = async () => {
      if (script.length === 0) return;
      let text = script.join('\n');
      for (const [from, to] of ports) text = text.replace(new RegExp(`(localhost|127\\.0\\.0\\.1):${from}\\b`, 'g'), `127.0.0.1:${to}`);
      script = [];
      const env = { ...process.env, PATH };
      const { stdout } = await execFile('bash', ['-euo', 'pipefail', '-c', text], { cwd: ROOT, env, timeout: 60_000 });
      outputs.set(block.text, (outputs.get(block.text) ?? '') + stdout);
    };
    try {
      for (const command of commandsOf(block.text)) {
        if (!SERVES.test(command)) {
          script.push(command);
          continue;
        }
        await run();
        const port = await freePort();
        const named = /\bPORT=(\d+)/.exec(command)?.[1] ?? (/examples\//.test(command) ? '3000' : '8787');
        servers.push(await serve(command, port, (output) => served.set(block.text, (served.get(block.text) ?? '') + output)));
        ports.set(named, String(port));
      }
      await run();
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      for (const file of await untracked()) if (!before.has(file)) rmSync(join(ROOT, file), { force: true });
    }
  }

  it.each(BLOCKS.map((block) => [`${block.file}: ${commandsOf(block.text)[0]}`, block] as const))(
    '%s',
    async (_name, block) => {
      if (!/dist\/|start:node|npm run build/.test(block.text)) return runBlock(block);
      // A block that builds or runs dist/ holds the build lock throughout, as the other builds do, so that no other
      // file's build removes dist/ under it; it finds dist/ as `npm ci` leaves it.
      await withBuildLock(async () => {
        if (!existsSync(join(ROOT, 'dist/cli.js'))) await execFile('npm', ['run', 'build'], { cwd: ROOT });
        await runBlock(block);
      });
    },
    180_000,
  );

  const outputOf = (text: string, of = outputs) => {
    const found = [...of].filter(([block]) => block.includes(text));
    expect(found, `one block ran with ${text}`).toHaveLength(1);
    return found[0]![1];
  };

  it('the README: a 304 to the ETag of the first answer, and the start options over MCP', () => {
    const output = outputOf('If-None-Match: $etag');
    expect(output).toMatch(/HTTP\/1\.1 304 Not Modified\r$/m);
    expect(output).toContain('"structuredContent":{"startOptions":[');
  });

  it('the contract: the MCP resource at the URI resources/list gave is llms.txt', () => {
    const output = outputOf('resources/read');
    const answer = JSON.parse(output.trim().split('\n').at(-1)!);
    expect(answer.result.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringMatching(/^# Lumen Galleries/) });
  });

  it('quotas per network: the agents policy names itself', () => {
    expect(outputOf('RATE_LIMIT_POLICIES=')).toMatch(/^RateLimit-Policy: "agents";q=1200;w=60\r$/im);
  });

  it('over quota: the third MCP call is a JSON-RPC error naming the wait', () => {
    const lines = outputOf('MCP_RATE_LIMIT_ANSWER=jsonrpc').trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^\{"jsonrpc":"2\.0","id":3,"error":\{"code":-32029,"message":"Rate limited: /);
  });

  it('getting started: check accepts the copy of the sample', () => {
    expect(outputOf('my-facts.json')).toMatch(/my-facts\.json would be served: Lumen Galleries/);
  });

  it('observability: the access log prints a request line', () => {
    expect(outputOf('ACCESS_LOG=json', served)).toMatch(/"event":"request"/);
  });

  it('verify: the local service keeps the contract', () => {
    expect(outputOf('cli.js verify http://127.0.0.1:8787')).toMatch(/keeps the contract: (\d+) of \1 checks passed/);
  });
});
