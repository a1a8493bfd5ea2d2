/** @module The paths of the front door (the root, robots.txt, llms-full.txt, the card's alias, the docs page), to join the route table's. */
export const ROOT_PATH = '/';
export const ROBOTS_PATH = '/robots.txt';
export const LLMS_FULL_PATH = '/llms-full.txt';
/** The server card at the well-known path scanners probe: the same bytes as /mcp/server-card. */
export const SERVER_CARD_WELL_KNOWN_PATH = '/.well-known/mcp/server-card.json';
export const DOCS_PATH = '/docs';
