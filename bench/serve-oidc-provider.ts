/**
 * Benchmark child: node-oidc-provider (panva/node-oidc-provider) on 127.0.0.1 and an ephemeral
 * port, the baseline of bench/identity.ts. Its issuer is its own loopback origin; storage is its
 * built-in in-memory adapter; one confidential client (`client_secret_basic`) may use the
 * client_credentials grant and introspect (RFC 7662, POST /token/introspection) the opaque access
 * tokens that grant issues. Reports `{ type: 'ready', url }` over IPC once listening; the client's
 * credentials are BENCH_OIDC_CLIENT_ID and BENCH_OIDC_CLIENT_SECRET, chosen by the parent.
 * oidc-provider 9 warns on stderr that Node 20 is not a runtime it supports (it asks for 22 LTS or
 * later; it runs) and that its in-memory adapter is for development: both expected here.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import { Provider } from 'oidc-provider';

if (!process.send) throw new Error('serve-oidc-provider.ts must be started by bench/identity.ts (it reports over IPC)');
const clientId = process.env['BENCH_OIDC_CLIENT_ID'];
const clientSecret = process.env['BENCH_OIDC_CLIENT_SECRET'];
if (!clientId || !clientSecret) throw new Error('BENCH_OIDC_CLIENT_ID and BENCH_OIDC_CLIENT_SECRET must be set');

const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
server.keepAliveTimeout = 5_000; // as Specbase sets it
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// A key of its own, so the provider does not fall back to (and warn about) its development keys;
// nothing here signs with it (client_credentials access tokens are opaque).
const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const signingKey = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'bench' };

const provider = new Provider(url, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: [signingKey] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    // The default policy less its warning: a confidential client may introspect any token.
    introspection: { enabled: true, allowedPolicy: (_ctx, client, token) => client.clientAuthMethod !== 'none' || token.clientId === client.clientId },
  },
  // Longer than any benchmark run, so the token stays active throughout.
  ttl: { ClientCredentials: 3_600 },
});
server.on('request', provider.callback());
process.send({ type: 'ready', url });

function shutdown(): void {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.on('disconnect', shutdown);
