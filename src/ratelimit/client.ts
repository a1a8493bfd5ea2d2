/** @module Client identity: the key a request counts against. */

/** The client a request counts against. Without an address (embedded use) all such requests share one key. */
export function clientKey(request: Request, address: string | undefined, trustedHops: number): string {
  if (trustedHops > 0) {
    const forwarded = request.headers.get('x-forwarded-for');
    if (forwarded) {
      // Each trusted proxy appends the address it saw; entries left of those it vouches for may be forged.
      const hops = forwarded.split(',').map((hop) => hop.trim()).filter(Boolean);
      const client = hops[Math.max(0, hops.length - trustedHops)];
      if (client) return normalise(client);
    }
  }
  return address ? normalise(address) : 'unknown';
}

function normalise(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
