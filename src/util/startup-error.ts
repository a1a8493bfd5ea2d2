/**
 * @module The error that stops start-up: a bad variable, facts file or address. Its message names
 * what is wrong and the fix, and is printed as is, without a stack trace.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}
