/**
 * The Containerfile, built with podman exactly as `npm run image` builds it, but from base images made
 * here (no registry is reachable; see test/support/images.ts): it serves as a non-root user on
 * $PORT, `podman healthcheck run` says healthy, the image holds no shell or package manager, and
 * `podman stop` (SIGTERM) lets a request in flight finish before the process exits 0.
 * Building takes minutes the first time on a busy machine; podman keeps the dependency layers.
 */
import { request as httpRequest } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../support/net.ts';
import { imageScript, makeBaseImages, podman, podmanStatus } from '../support/images.ts';
import { ensurePlatformTools, request } from '../support/platforms.ts';
import { frame } from '../support/mcp.ts';
import { freePort } from '../support/net.ts';

const IMAGE = 'localhost/product-discovery-test/app:e2e';
const NAME = `product-discovery-e2e-${process.pid}`;
let port = 0;
let base = '';

async function run(name: string): Promise<void> {
  // Host networking: no port mapping to set up; the image's HOST (0.0.0.0) and PORT are what listen.
  await podman('run', '-d', '--name', name, '--network', 'host', '-e', `PORT=${port}`, '-e', `PUBLIC_BASE_URL=${base}`, IMAGE);
  for (let tries = 0; tries < 200; tries++) {
    if (
      await request(`${base}/api/v1/health`).then(
        (answer) => answer.status === 200,
        () => false,
      )
    )
      return;
    await sleep(100);
  }
  throw new Error(`the container did not serve:\n${await podman('logs', name)}`);
}

beforeAll(async () => {
  await ensurePlatformTools(); // the Node 22 binary the base images are made from
  const images = await makeBaseImages();
  const started = Date.now();
  // `npm run image` (podman, in Docker format, which keeps HEALTHCHECK) with the base images made here.
  await imageScript(
    '--network',
    'none',
    // The build image's npm installs offline from this machine's npm cache.
    '--volume',
    `${join(homedir(), '.npm')}:/root/.npm`,
    '--build-arg',
    `BUILD_IMAGE=${images.build}`,
    '--build-arg',
    `RUN_IMAGE=${images.run}`,
    '--tag',
    IMAGE,
  );
  const size = Number(await podman('image', 'inspect', '--format', '{{.Size}}', IMAGE));
  const baseSize = Number(await podman('image', 'inspect', '--format', '{{.Size}}', images.run));
  console.log(
    `container image: built in ${Math.round((Date.now() - started) / 1000)} s, ${(size / 1e6).toFixed(0)} MB, of which the service adds ${((size - baseSize) / 1e6).toFixed(0)} MB to its Node base`,
  );
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  await run(NAME);
}, 900_000);

afterAll(async () => {
  await podmanStatus('rm', '--force', NAME);
});

describe('the container image', () => {
  it("serves on $PORT as a non-root user, with the image's configuration", async () => {
    const answer = await request(`${base}/api/v1`);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(`"${base}/openapi.json"`);
    const [{ Config: config, Healthcheck: healthcheck }] = JSON.parse(await podman('image', 'inspect', IMAGE));
    expect(config.User).toBe('65532:65532');
    expect(config.StopSignal).toBe('SIGTERM');
    expect(config.Env).toEqual(expect.arrayContaining(['HOST=0.0.0.0', 'PORT=8080']));
    expect(healthcheck.Test).toEqual(['CMD', '/nodejs/bin/node', 'dist/startup/healthcheck.js']);
    const ids = await podman('exec', NAME, '/nodejs/bin/node', '-e', 'console.log(process.getuid(), process.getgid())');
    expect(ids.trim()).toBe('65532 65532');
  });

  it('is healthy by its own HEALTHCHECK, and unhealthy when nothing answers on $PORT', async () => {
    const healthy = await podmanStatus('healthcheck', 'run', NAME);
    expect(healthy.code, healthy.output).toBe(0);
    // The same probe against a port nothing listens on.
    const probe = await podmanStatus('exec', '-e', 'PORT=1', NAME, '/nodejs/bin/node', 'dist/startup/healthcheck.js');
    expect(probe.code).toBe(1);
    expect(probe.output).toMatch(/no answer on port 1/);
  });

  it('holds no shell and no package manager', async () => {
    const found = await podman(
      'exec',
      NAME,
      '/nodejs/bin/node',
      '-e',
      `const fs = require('fs');
       const names = ['sh', 'bash', 'dash', 'ash', 'busybox', 'npm', 'npx', 'yarn', 'apt', 'apt-get', 'dpkg', 'apk'];
       const dirs = ['/bin', '/sbin', '/usr/bin', '/usr/sbin', '/usr/local/bin', '/nodejs/bin'];
       console.log(JSON.stringify(dirs.flatMap((dir) => names.map((name) => dir + '/' + name)).filter((path) => fs.existsSync(path))));`,
    );
    expect(JSON.parse(found)).toEqual([]);
    const shell = await podmanStatus('exec', NAME, 'sh', '-c', 'true');
    expect(shell.code).not.toBe(0);
  });

  it('finishes a request in flight on `podman stop` (SIGTERM), then exits 0', async () => {
    // An MCP request whose body arrives slowly is in flight while the container is told to stop.
    const { headers, body } = frame('legacy', 'tools/list');
    const half = Math.floor(body.length / 2);
    let answered: (value: { status: number; text: string }) => void;
    const answer = new Promise<{ status: number; text: string }>((resolve) => (answered = resolve));
    const req = httpRequest(
      `${base}/mcp`,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => answered({ status: res.statusCode!, text }));
      },
    );
    req.write(body.slice(0, half));
    await sleep(300);
    let exited = false;
    const stopped = podman('stop', '--time', '30', NAME).then(() => (exited = true));
    await sleep(1500);
    expect(exited).toBe(false);
    req.end(body.slice(half));
    const { status, text } = await answer;
    expect(status).toBe(200);
    expect(JSON.parse(text).result.tools.length).toBeGreaterThan(0);
    await stopped;
    expect((await podman('inspect', '--format', '{{.State.ExitCode}}', NAME)).trim()).toBe('0');
    expect(await podman('logs', NAME)).toMatch(/"event":"shutdown","signal":"SIGTERM","drainedRequests":1/);
  }, 60_000);
});
