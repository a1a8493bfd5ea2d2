/** @module The embedding API: build the fetch handler and mount it in any web-standard app. */
export { createHandler, type Handler, type HandlerOptions, type RequestInfo } from './handler.ts';
export { checkFacts, parseFacts } from './facts.ts';
export { isServedPath } from './routes.ts';
export { toNodeListener, type NodeListener } from './node-listener.ts';
export { loadConfig, type Options } from './config.ts';
export { StartupError } from './startup-error.ts';
export type { Product } from './schemas.ts';
export { default as sampleFacts } from './sample-facts.json' with { type: 'json' };
