/** @module Serves the handler on Node through @hono/node-server. */
import { nodeRuntime } from '../startup/node-runtime.ts';
import { start } from '../startup/start.ts';

await start(nodeRuntime(process));
