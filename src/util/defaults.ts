/** @module Options an embedding app or the environment leaves out take their defaults. */

/** `defaults` with every value `given` defines (an undefined value keeps the default). */
export function withDefaults<T extends object, G extends Partial<T>>(defaults: T, given: G | undefined): T & G {
  const merged = { ...defaults } as Record<string, unknown>;
  for (const [name, value] of Object.entries(given ?? {})) if (value !== undefined) merged[name] = value;
  return merged as T & G;
}
