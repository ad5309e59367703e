import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
  /** A fetch that trusts this certificate, and only it (`connect.ca` replaces the default trust store). */
  fetch: typeof fetch;
}

/**
 * A self-signed certificate for `localhost` and `127.0.0.1`, valid for a day, written into `dir` by openssl. Give
 * it to the dev-idp (`tls`), and to a Node process that must trust it through NODE_EXTRA_CA_CERTS=<certFile>.
 */
export function makeTestCertificate(dir: string): TestCertificate {
  const certFile = join(dir, 'localhost-cert.pem');
  const keyFile = join(dir, 'localhost-key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'pipe' },
  );
  const cert = readFileSync(certFile, 'utf8');
  const dispatcher = new Agent({ connect: { ca: cert } });
  const trustingFetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    })) as unknown as typeof fetch;
  return { certFile, keyFile, cert, key: readFileSync(keyFile, 'utf8'), fetch: trustingFetch };
}
