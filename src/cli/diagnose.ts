/** @module Why a request to a deployment got no answer (`verify` cannot reach it), in one line with what to check, from the error fetch gives. */
interface Failure {
  name?: string;
  code?: string;
  message?: string;
  cause?: unknown;
  errors?: unknown[];
}

/** The innermost error of fetch's `TypeError: fetch failed` (undici puts the reason in `cause`). */
function rootCause(error: unknown): Failure {
  let found = error as Failure;
  for (let depth = 0; depth < 5 && found?.cause && typeof found.cause === 'object'; depth++) found = found.cause as Failure;
  // Both addresses of a name (::1 and 127.0.0.1) refused: an AggregateError of one code each.
  if (!found?.code && found?.errors?.length) found = found.errors[0] as Failure;
  return found ?? {};
}

/** OpenSSL's own text (`80...:error:0A00010B:SSL routines:...:wrong version number:file:line:`) cut to its reason, on one line. */
const openSslReason = (message: string) => /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1] ?? message.split('\n')[0]!.trim();

/** Why a request to `url` got no answer, in one line with what to check. */
export function unreachable(error: unknown, url: URL): string {
  const { name, code = '', message = '' } = rootCause(error);
  const host = url.hostname;
  const where = `${host} port ${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
  const tls = /^(CERT_|ERR_TLS_|ERR_SSL_)|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|^HOSTNAME_MISMATCH$/.test(code);
  switch (true) {
    case code === 'ECONNREFUSED':
      return `connection refused by ${where}: nothing listens there; check the port and that the service runs`;
    case code === 'ENOTFOUND':
      return `no such host ${JSON.stringify(host)} (DNS); check the host name`;
    case code === 'EAI_AGAIN':
      return `the name ${JSON.stringify(host)} could not be resolved now (DNS, EAI_AGAIN); check the network and retry`;
    case ['UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT'].includes(code) || name === 'TimeoutError' || name === 'AbortError':
      return `no answer from ${where} in time (timeout); check the address, the port and any firewall between`;
    // OpenSSL's reading of a plain-HTTP answer where a TLS record was due.
    case code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length too long|http request/i.test(message):
      return `${where} does not speak TLS (a plain-HTTP port?); use http://${url.host} for a service without TLS, or the port that serves https`;
    case tls || /certificate|TLS|SSL/i.test(message):
      return `TLS failure (${code || name}: ${openSslReason(message)}); check the certificate, or use http:// for a service without TLS`;
    case code === 'ECONNRESET' || code === 'UND_ERR_SOCKET':
      return `the connection was closed before an answer (${code}); check that ${where} speaks HTTP`;
    case code === 'EHOSTUNREACH' || code === 'ENETUNREACH':
      return `${host} cannot be reached from this machine (${code}); check the network and the address`;
    default:
      return `${code || name || 'error'}: ${message.split('\n')[0]}`;
  }
}
