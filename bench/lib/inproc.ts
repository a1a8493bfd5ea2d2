/** @module The in-process measurements (bench/inproc.ts), each run in a child Node process. */
import { config } from './config.ts';
import { freePort, has, run, start } from './proc.ts';

export async function inproc(args: string[], nodeFlags: string[] = []): Promise<unknown> {
  const out = await run(process.execPath, [...nodeFlags, '--import', 'tsx', 'bench/inproc.ts', ...args], { cpu: config.serverCpu });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

export async function redisVsMemory(): Promise<{ skipped?: string; result?: unknown }> {
  if (!has('redis-server')) return { skipped: 'redis-server is not installed (apt-get install -y redis-server)' };
  const port = await freePort();
  const redis = await start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    cpu: config.loadCpu,
    ready: /(Ready to accept connections)/,
  });
  try {
    return { result: await inproc(['stores', `redis://127.0.0.1:${port}`, String(config.storeRounds), String(config.storeSeconds)]) };
  } catch (error) {
    return { skipped: `failed: ${(error as Error).message.slice(0, 300)}` };
  } finally {
    await redis.stop();
  }
}
