/** @module The embedding API: build the fetch handler and mount it in any web-standard app. */
export { createHandler, type Handler, type HandlerOptions, type RequestInfo } from './handler.ts';
export { checkFacts, parseFacts } from './facts/check.ts';
export { isServedPath } from './routes.ts';
export { toNodeListener, type NodeListener } from './startup/node-listener.ts';
export { loadConfig, type Options } from './startup/config.ts';
export { StartupError } from './util/startup-error.ts';
export type { ApprovalAction, Product, ProductFacts, Resource, ResourceKind, StartOption } from './facts/types.ts';
export { default as sampleFacts } from './facts/sample-facts.json' with { type: 'json' };
