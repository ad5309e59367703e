import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { AccountStore } from './accounts';
import { handleInteraction, isInteractionRequest } from './interaction';
import { createProvider, type DevIdpClient, generateProviderSecrets } from './provider';

/** A certificate and its private key, PEM-encoded, for an `https:` issuer. */
export interface DevIdpTls {
  cert: string | Buffer;
  key: string | Buffer;
}

export interface DevIdpOptions {
  /**
   * Origin the provider is reached at, e.g. `http://localhost:3002`, or `https://localhost:3002` with `tls`; it
   * also binds to its host name.
   */
  issuer: string;
  /** Serve HTTPS with this certificate (required by, and only allowed with, an `https:` issuer). */
  tls?: DevIdpTls;
  /** Port to bind, 0 for any free one; the issuer's port is replaced by the bound port. Defaults to the issuer's. */
  port?: number;
  clients: DevIdpClient[];
}

export interface DevIdp {
  /** The issuer URL, with the bound port; available once `listen()` resolved. */
  readonly issuer: string;
  /** Starts serving and resolves to the issuer URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export function createDevIdp(options: DevIdpOptions): DevIdp {
  if (process.env.NODE_ENV === 'production') {
    throw new Error('dev-idp is a development identity provider and refuses to start when NODE_ENV=production');
  }
  const issuerUrl = parseIssuer(options.issuer, options.tls);
  const port = options.port ?? Number(issuerUrl.port || (options.tls ? 443 : 80));
  const accounts = new AccountStore();
  const secrets = generateProviderSecrets();
  let server: Server | undefined;
  let issuer: string | undefined;

  return {
    get issuer() {
      if (!issuer) throw new Error('dev-idp is not listening yet: await listen() first');
      return issuer;
    },

    async listen() {
      if (server) throw new Error('dev-idp is already listening');
      const listening: Server = options.tls ? createTlsServer(options.tls) : createServer();
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(port, issuerUrl.hostname, () => {
          listening.off('error', reject);
          resolve();
        });
      });
      server = listening;
      const boundUrl = new URL(issuerUrl);
      boundUrl.port = String((listening.address() as AddressInfo).port);
      issuer = boundUrl.origin;
      const provider = createProvider(issuer, options.clients, accounts, secrets);
      const handleProviderRequest = provider.callback();
      listening.on('request', (req, res) => {
        if (req.url === '/health/live' || req.url === '/health/ready') {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
        } else if (isInteractionRequest(req)) {
          void handleInteraction(provider, accounts, req, res);
        } else {
          handleProviderRequest(req, res);
        }
      });
      return issuer;
    },

    async close() {
      const closing = server;
      if (!closing) return;
      server = undefined;
      issuer = undefined;
      await new Promise<void>((resolve, reject) => {
        closing.close((error) => (error ? reject(error) : resolve()));
        closing.closeAllConnections();
      });
    },
  };
}

function parseIssuer(issuer: string, tls: DevIdpTls | undefined): URL {
  const url = new URL(issuer);
  const protocol = tls ? 'https:' : 'http:';
  if (url.protocol !== protocol || url.pathname !== '/' || url.search || url.hash) {
    throw new Error(
      tls
        ? `dev-idp serves HTTPS with the certificate it was given: its issuer must be an origin like https://localhost:3002, got ${issuer}`
        : `dev-idp serves plain HTTP without a certificate: its issuer must be an origin like http://localhost:3002, got ${issuer}`,
    );
  }
  return url;
}
