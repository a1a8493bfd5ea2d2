/**
 * @module The container's health probe (`node dist/startup/healthcheck.js`), for images with no shell or
 * curl: GET health on this instance's own port; exit 0 on a 200 (`ok` or `degraded`: the service
 * answers), 1 on anything else or no answer within 2 s.
 */
import { env } from 'node:process';

const port = env.PORT || '8787';

try {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/health`, { signal: AbortSignal.timeout(2000) });
  const { status } = (await response.json()) as { status?: string };
  console.log(`health: ${response.status} ${status ?? ''}`.trim());
  process.exitCode = response.status === 200 ? 0 : 1;
} catch (error) {
  console.log(`health: no answer on port ${port} (${(error as Error).message})`);
  process.exitCode = 1;
}
