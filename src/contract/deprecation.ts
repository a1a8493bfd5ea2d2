/**
 * @module The v1 deprecation lifecycle: RFC 9745 Deprecation, RFC 8594 Sunset and the successor link,
 * and the rule every way in (the environment, `createHandler`'s options) is checked against: both
 * dates or neither, and a sunset at least 90 days after the deprecation.
 */
import type { ApiIndex } from './schemas.ts';
import { invalidConfiguration, settingLine } from '../util/startup-error.ts';

/** A deprecation of v1, once announced (the environment's DEPRECATION_DATE, SUNSET_DATE, SUCCESSOR_PATH). */
export interface Deprecation {
  deprecatedAt: Date;
  sunsetAt: Date;
  /** The successor's path under `{base}`, e.g. `/api/v2`. */
  successorPath: string;
}

/** The notice callers are owed between the deprecation and the sunset (the contract's rule). */
export const MIN_SUNSET_NOTICE_DAYS = 90;
export const SUCCESSOR_PATH_DEFAULT = '/api/v2';
export const SUCCESSOR_PATH_PATTERN = /^\/[A-Za-z0-9._~/-]*$/;
const DAY_MS = 86_400_000;

/** What a way in calls the settings, so a refusal names the one its user wrote. */
export interface DeprecationNames {
  deprecatedAt: string;
  sunsetAt: string;
  successorPath: string;
}

const OPTION_NAMES: DeprecationNames = {
  deprecatedAt: 'deprecation.deprecatedAt',
  sunsetAt: 'deprecation.sunsetAt',
  successorPath: 'deprecation.successorPath',
};

/**
 * The deprecation `given` announces, checked: undefined when neither date is set; a StartupError
 * naming the setting (as `names` call it) when one date is missing or not a date, the successor path
 * is not a path, or the sunset comes less than MIN_SUNSET_NOTICE_DAYS after the deprecation.
 */
export function checkDeprecation(given: Partial<Deprecation> | undefined, names: DeprecationNames = OPTION_NAMES): Deprecation | undefined {
  const { deprecatedAt, sunsetAt, successorPath = SUCCESSOR_PATH_DEFAULT } = given ?? {};
  if (!deprecatedAt && !sunsetAt) return undefined;
  const refuse = (line: string) => {
    throw invalidConfiguration(line);
  };
  if (!deprecatedAt || !sunsetAt) {
    const missing = deprecatedAt ? names.sunsetAt : names.deprecatedAt;
    refuse(`${missing} is unset: ${names.deprecatedAt} and ${names.sunsetAt} are set together or not at all.`);
  }
  for (const [name, date] of [
    [names.deprecatedAt, deprecatedAt],
    [names.sunsetAt, sunsetAt],
  ] as const) {
    if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
      refuse(`${name} is not a valid Date: give a Date such as new Date('2027-01-31').`);
    }
  }
  if (typeof successorPath !== 'string' || !SUCCESSOR_PATH_PATTERN.test(successorPath)) {
    refuse(settingLine(names.successorPath, successorPath, `must be a path starting with /, such as ${SUCCESSOR_PATH_DEFAULT}`));
  }
  const noticeDays = (sunsetAt!.getTime() - deprecatedAt!.getTime()) / DAY_MS;
  if (noticeDays < MIN_SUNSET_NOTICE_DAYS) {
    const earliest = new Date(deprecatedAt!.getTime() + MIN_SUNSET_NOTICE_DAYS * DAY_MS).toISOString();
    refuse(
      `${names.sunsetAt} is ${noticeDays.toFixed(1)} days after ${names.deprecatedAt}; callers are owed at least ` +
        `${MIN_SUNSET_NOTICE_DAYS} days of notice: set ${names.sunsetAt} to ${earliest} or later.`,
    );
  }
  return { deprecatedAt: deprecatedAt!, sunsetAt: sunsetAt!, successorPath };
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
