/**
 * A throw-away test CA and a localhost server certificate (openssl), and an https server
 * publishing Client ID Metadata Documents. The gateway trusts the CA only through its
 * test-only setting (GATEWAY_TEST_CIMD_CA with GATEWAY_TEST_CIMD_ALLOW_PRIVATE=1).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCa {
  dir: string;
  caFile: string;
  key: Buffer;
  cert: Buffer;
}

export function createTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-ca-'));
  const f = (name: string) => join(dir, name);
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run([
    'req',
    '-x509',
    ...ec,
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=E2E Test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  run(['req', ...ec, '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=localhost']);
  writeFileSync(
    f('ext.cnf'),
    [
      'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth',
    ].join('\n'),
  );
  run([
    'x509',
    '-req',
    '-in',
    f('server.csr'),
    '-CA',
    f('ca.pem'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-out',
    f('server.pem'),
    '-days',
    '2',
    '-extfile',
    f('ext.cnf'),
  ]);
  return { dir, caFile: f('ca.pem'), key: readFileSync(f('server.key')), cert: readFileSync(f('server.pem')) };
}

export interface MetadataServer {
  origin: string;
  /** publishes a document at `path` and returns its URL (the client_id) */
  publish(path: string, build: (clientId: string) => Record<string, unknown>): string;
  /** how often each path was fetched */
  fetches: Map<string, number>;
  close(): Promise<void>;
}

export async function startMetadataServer(ca: TestCa): Promise<MetadataServer> {
  const docs = new Map<string, string>();
  const fetches = new Map<string, number>();
  const server: Server = createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    const doc = docs.get(path);
    fetches.set(path, (fetches.get(path) ?? 0) + 1);
    if (!doc || req.method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=300' }).end(doc);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    fetches,
    publish(path, build) {
      const url = `${origin}${path}`;
      docs.set(path, JSON.stringify(build(url)));
      return url;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
