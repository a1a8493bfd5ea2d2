/**
 * Every documented way to run the service stops on SIGTERM and on SIGINT sent to the process the
 * user started (npm, npx, deno task or the bin), leaving nothing listening and no process of its
 * tree behind: the signal must reach the server through every launcher in between.
 * Linux: the process tree is read from /proc.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/e2e.ts';
import { sleep } from '../support/net.ts';
import { ROOT } from '../support/entries.ts';
import { installConsumer, packOnce, withBuildLock } from '../support/package.ts';

interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  command: string;
}

/** Every live process (zombies, which hold nothing, left out), from /proc/<pid>/stat and cmdline. */
function processes(): Proc[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
        const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
        return state === 'Z' ? [] : [{ pid: Number(name), ppid: Number(ppid), pgid: Number(pgid), state: state!, command }];
      } catch {
        return []; // gone meanwhile
      }
    });
}

/** The process and its descendants. */
function tree(root: number): Proc[] {
  const all = processes();
  const found = all.filter((proc) => proc.pid === root);
  for (let i = 0; i < found.length; i++) found.push(...all.filter((proc) => proc.ppid === found[i]!.pid));
  return found;
}

const listing = (procs: Proc[]) => procs.map((proc) => `${proc.pid} (parent ${proc.ppid}) ${proc.command}`).join('\n');

interface Way {
  name: string;
  command: string[];
  cwd?: () => string;
  /** Builds dist/ before serving: holds the build lock until it serves. */
  builds?: boolean;
}

let consumer = '';
const WAYS: Way[] = [
  { name: 'npx deno task serve', command: ['npx', 'deno', 'task', 'serve'] },
  { name: 'deno task serve (node_modules/.bin/deno)', command: [join(ROOT, 'node_modules/.bin/deno'), 'task', 'serve'] },
  { name: 'npm start', command: ['npm', 'start'] },
  { name: 'npm run start:node', command: ['npm', 'run', 'start:node'], builds: true },
  { name: 'npm run start:workers', command: ['npm', 'run', 'start:workers'] },
  { name: 'product-discovery serve (the installed bin)', command: ['node_modules/.bin/product-discovery', 'serve'], cwd: () => consumer },
];

beforeAll(async () => {
  consumer = mkdtempSync(join(tmpdir(), 'signals-bin-'));
  await installConsumer(consumer, (await packOnce()).tarball, 'npm');
}, 180_000);
afterAll(() => rmSync(consumer, { recursive: true, force: true }));

/** Starts a way of running it in a process group of its own; resolves once it prints the URL it serves. */
async function launch(way: Way) {
  const [command, ...args] = way.command;
  // Its own process group, so that the cleanup below can reach anything left behind.
  const child = spawn(command!, args, {
    cwd: way.cwd?.() ?? ROOT,
    env: { ...process.env, PORT: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const serving = async () => {
    for (let i = 0; i < 1200 && !/Serving .* on http/.test(output) && child.exitCode === null; i++) await sleep(50);
  };
  await (way.builds ? withBuildLock(serving) : serving());
  const url = /Serving .* on (http:\/\/[^\s)]+)/.exec(output)?.[1];
  return { child, exited, url, output: () => output };
}

describe.each(WAYS)('$name', (way) => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops on %s to the launched process: port free, process tree gone',
    async (signal) => {
      const { child, exited, url, output } = await launch(way);
      const group = child.pid!;
      try {
        expect(url, output()).toBeDefined();
        expect((await send(`${url}/api/v1/health`)).status).toBe(200);
        const started = tree(group);
        expect(started.length).toBeGreaterThan(0);

        child.kill(signal);
        const stopped = await Promise.race([exited.then(() => true), sleep(20_000).then(() => false)]);
        expect(stopped, `the launched process is still running 20 s after ${signal}:\n${listing(tree(group))}`).toBe(true);

        let left = started;
        for (let i = 0; i < 100 && left.length > 0; i++) {
          await sleep(100);
          const alive = new Set(processes().map((proc) => proc.pid));
          left = started.filter((proc) => alive.has(proc.pid));
        }
        expect(listing(left), 'processes of its tree still running').toBe('');
        expect(listing(processes().filter((proc) => proc.pgid === group)), 'processes of its group still running').toBe('');
        const refused = await send(`${url}/api/v1/health`).then(
          () => false,
          (error) => error.code === 'ECONNREFUSED',
        );
        expect(refused, `something still answers on ${url}`).toBe(true);
      } finally {
        try {
          process.kill(-group, 'SIGKILL');
        } catch {
          // the group is gone, as it should be
        }
      }
    },
    90_000,
  );
});
