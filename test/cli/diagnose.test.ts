/** Why `verify` cannot reach a deployment, worded from the error fetch gives. */
import { describe, expect, it } from 'vitest';
import { unreachable } from '../../src/cli/diagnose.ts';

describe("why verify cannot reach a deployment, from fetch's error", () => {
  // The shape undici gives: TypeError('fetch failed') with the system or undici error as its cause.
  const failed = (cause: object) => new TypeError('fetch failed', { cause });
  const coded = (code: string, message = code) => Object.assign(new Error(message), { code });
  const url = new URL('https://api.example.com');

  it.each([
    [coded('ECONNREFUSED'), /^connection refused by api\.example\.com port 443: nothing listens there/],
    [coded('ENOTFOUND', 'getaddrinfo ENOTFOUND api.example.com'), /^no such host "api\.example\.com" \(DNS\)/],
    [coded('EAI_AGAIN'), /^the name "api\.example\.com" could not be resolved now \(DNS, EAI_AGAIN\)/],
    [coded('UND_ERR_CONNECT_TIMEOUT'), /^no answer from api\.example\.com port 443 in time \(timeout\)/],
    [
      coded('CERT_HAS_EXPIRED', 'certificate has expired'),
      /^TLS failure \(CERT_HAS_EXPIRED: certificate has expired\); check the certificate/,
    ],
    [
      coded('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"),
      /^TLS failure \(ERR_TLS_CERT_ALTNAME_INVALID: /,
    ],
    [coded('ECONNRESET'), /^the connection was closed before an answer \(ECONNRESET\)/],
    [
      // What Node's OpenSSL says of a plain-HTTP answer to https://, seen against a local server.
      coded(
        'ERR_SSL_WRONG_VERSION_NUMBER',
        '809C050F997F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n',
      ),
      /^api\.example\.com port 443 does not speak TLS \(a plain-HTTP port\?\); use http:\/\/api\.example\.com for a service without TLS[^\n]*$/,
    ],
    [
      coded(
        'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
        '80:error:0A000410:SSL routines:ssl3_read_bytes:sslv3 alert handshake failure:ssl.c:1:\n',
      ),
      /^TLS failure \(ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: sslv3 alert handshake failure\); check the certificate[^\n]*$/,
    ],
  ])('%s', (cause, reason) => {
    expect(unreachable(failed(cause), url)).toMatch(reason);
  });

  it('reads the first of both addresses refused (an AggregateError) and a timeout abort', () => {
    const both = Object.assign(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]), { code: undefined });
    expect(unreachable(failed(both), new URL('http://localhost:8787'))).toMatch(/^connection refused by localhost port 8787/);
    expect(unreachable(new DOMException('The operation was aborted due to timeout', 'TimeoutError'), url)).toMatch(/\(timeout\)/);
  });

  it('falls back to the code and the first line of the message', () => {
    expect(unreachable(failed(coded('UND_ERR_HEADERS_OVERFLOW', 'Headers Overflow Error\nmore')), url)).toBe(
      'UND_ERR_HEADERS_OVERFLOW: Headers Overflow Error',
    );
  });
});
