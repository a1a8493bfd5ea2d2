/** Listening: the URL of an address, and a runtime's listen error worded as a refusal naming the variable and the fix. */
import { describe, expect, it } from 'vitest';
import { listenFailure, listeningUrl } from '../../src/startup/listen.ts';
import { StartupError } from '../../src/util/startup-error.ts';

describe('listeningUrl', () => {
  it('writes an IPv6 address in brackets', () => {
    expect(listeningUrl({ hostname: '127.0.0.1', port: 8787 })).toBe('http://127.0.0.1:8787');
    expect(listeningUrl({ hostname: '::1', port: 80 })).toBe('http://[::1]:80');
  });
});

describe('listenFailure', () => {
  const address = { host: '127.0.0.1', port: 8787 };
  it.each([
    [{ code: 'EADDRINUSE' }, /^Cannot listen:\n {2}PORT="8787": port 8787 is already in use on 127\.0\.0\.1; /],
    [{ name: 'AddrInUse' }, /PORT="8787": port 8787 is already in use/],
    [{ code: 'EACCES' }, /PORT="8787": not permitted to listen on port 8787 \(EACCES\); choose a PORT from 1024 up/],
    [{ name: 'PermissionDenied' }, /not permitted to listen on port 8787 \(PermissionDenied\)/],
    [
      { code: 'EADDRNOTAVAIL', message: 'listen EADDRNOTAVAIL: address not available 10.9.9.9:8787\nmore' },
      /^Cannot listen:\n {2}HOST="127\.0\.0\.1": cannot listen on this address \(EADDRNOTAVAIL: listen EADDRNOTAVAIL: address not available 10\.9\.9\.9:8787\); use an address/,
    ],
  ] as [{ code?: string; name?: string; message?: string }, RegExp][])('words %j as a StartupError', (error, message) => {
    const refusal = listenFailure(Object.assign(new Error(error.message ?? ''), error), address);
    expect(refusal).toBeInstanceOf(StartupError);
    expect(refusal.message).toMatch(message);
  });
});
