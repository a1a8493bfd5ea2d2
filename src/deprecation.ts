/** @module The v1 deprecation lifecycle: RFC 9745 Deprecation, RFC 8594 Sunset and the successor link. */
import type { ApiIndex } from './schemas.ts';

/** A deprecation of v1, once announced (the environment's DEPRECATION_DATE, SUNSET_DATE, SUCCESSOR_PATH). */
export interface Deprecation {
  deprecatedAt: Date;
  sunsetAt: Date;
  /** The successor's path under `{base}`, e.g. `/api/v2`. */
  successorPath: string;
}

export interface DeprecationNotice {
  /** Headers for every response to a path under /api/v1 (Link is merged with the service-desc link). */
  headers: { Deprecation: string; Sunset: string };
  successorLink: string;
  index: NonNullable<ApiIndex['deprecation']>;
}

export function deprecationNotice(base: string, config: Deprecation | undefined): DeprecationNotice | undefined {
  if (!config) return undefined;
  const successor = `${base}${config.successorPath}`;
  return {
    headers: {
      // RFC 9745 section 2.1: an RFC 9651 Date, "@" followed by Unix seconds.
      Deprecation: `@${Math.floor(config.deprecatedAt.getTime() / 1000)}`,
      // RFC 8594 section 3: an HTTP-date (IMF-fixdate), which toUTCString produces.
      Sunset: config.sunsetAt.toUTCString(),
    },
    successorLink: `<${successor}>; rel="successor-version"`,
    index: { deprecatedAt: config.deprecatedAt.toISOString(), sunsetAt: config.sunsetAt.toISOString(), successor },
  };
}
