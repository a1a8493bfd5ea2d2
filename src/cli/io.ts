/** @module Where a `product-discovery` command writes, handed to each command's `run`. */
/** Where a command writes: stdout, stderr, and whether stdout is a person's terminal in colour. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  color: boolean;
}
