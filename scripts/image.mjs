#!/usr/bin/env node
/**
 * `npm run image [-- podman/docker build options]`: builds the Containerfile as `product-discovery-api`
 * with podman when it is installed (in Docker format, which keeps HEALTHCHECK), otherwise with docker.
 * E.g. `npm run image -- --build-arg RUN_IMAGE=gcr.io/distroless/nodejs22-debian12@sha256:...`.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const has = (tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;
const tool = has('podman') ? 'podman' : has('docker') ? 'docker' : undefined;
if (!tool) {
  console.error(
    'Cannot build the image: neither podman nor docker is installed. Install one (e.g. apt-get install podman) and run `npm run image` again.',
  );
  process.exit(1);
}
const format = tool === 'podman' ? ['--format', 'docker'] : [];
const args = ['build', ...format, '--tag', 'product-discovery-api', '--file', 'Containerfile', ...process.argv.slice(2), '.'];
console.log(`${tool} ${args.join(' ')}`);
process.exit(spawnSync(tool, args, { cwd: root, stdio: 'inherit' }).status ?? 1);
