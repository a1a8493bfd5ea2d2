/**
 * @module `product-discovery verify URL [--json]`: checks a running deployment against the contract
 * (verify/). Exit 0 when every check passes; 1 when one fails or the deployment cannot be reached,
 * with the reason in one line; 2 for a URL that is not http(s) or a package verify needs missing.
 */
import { formatReport, reportJson, verify as run } from '../verify/index.ts';
import { isHttpUrl } from '../contract/base-url.ts';
import { StartupError } from '../util/startup-error.ts';
import { unreachable } from './diagnose.ts';
import type { Io } from './io.ts';

export async function verify(url: string, json: boolean, io: Io): Promise<number> {
  if (!isHttpUrl(url)) {
    io.err(`product-discovery verify: ${JSON.stringify(url)} is not an http or https URL, e.g. https://api.example.com`);
    return 2;
  }
  let report: Awaited<ReturnType<typeof run>>;
  try {
    report = await run(url);
  } catch (error) {
    // A package verify needs is not installed: the message names it and the install command.
    if (error instanceof StartupError) {
      io.err(error.message);
      return 2;
    }
    io.err(`product-discovery verify: cannot reach ${url}: ${unreachable(error, new URL(url))}`);
    return 1;
  }
  io.out(json ? reportJson(report) : formatReport(report, { color: io.color }));
  return report.ok ? 0 : 1;
}
