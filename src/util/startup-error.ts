/**
 * @module The error that stops start-up: a bad variable, facts file or address. Its message names
 * what is wrong and the fix, and is printed as is, without a stack trace.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** A URL's user information (`user:password@`) hidden, wherever a refused value is echoed. */
const USER_INFO = /(:\/\/)[^/?#@\s,]*@/g;

/**
 * One refused setting as every way in words it: `NAME="value": what is wrong and the fix`, the
 * setting named as its way in calls it (PUBLIC_BASE_URL, `publicBaseUrl`) and a URL's user
 * information never echoed.
 */
export function settingLine(name: string, value: unknown, problem: string): string {
  const shown = JSON.stringify(value, (_, item) => (typeof item === 'string' ? item.replace(USER_INFO, '$1***@') : item));
  return `${name}=${shown}: ${problem.replace(USER_INFO, '$1***@')}`;
}

/** The StartupError for refused settings, one line each. */
export const invalidConfiguration = (...lines: string[]) =>
  new StartupError(`Invalid configuration:\n${lines.map((line) => `  ${line}`).join('\n')}`);
