/** Installs the Debian packages the tests run (redis-server, redis-tools, chromium) when missing, or throws naming them. */
export function ensureSystemPackages(): void;
