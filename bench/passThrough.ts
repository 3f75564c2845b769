/**
 * The floor for any Node gateway on this machine (a diagnostic of bench/gateway.ts): a
 * process that does only what every MCP call through a gateway must do — take an HTTP POST,
 * parse its JSON, make one keep-alive HTTP call to the ledger (undici, the gateway's own), parse
 * that answer and write a JSON-RPC answer — with no token lookup, protocol or validation.
 * Started with IPC: it sends its port once listening, and its `process.cpuUsage()` for every
 * message it receives.
 *
 * Env: PASS_THROUGH_URL (the ledger URL to call), PASS_THROUGH_HEADERS (JSON headers).
 */
import { createRequire } from 'node:module';
import { createServer } from 'node:http';

// undici as the gateway resolves it (its own dependency, 7.x), not the one bench/ would find first: the
// repository's root holds an older major that another package brought, and the floor is read like for like
const { Agent, request } = createRequire(new URL('../mcp-gateway/package.json', import.meta.url))(
  'undici',
) as typeof import('undici');

const url = process.env.PASS_THROUGH_URL!;
const headers = JSON.parse(process.env.PASS_THROUGH_HEADERS ?? '{}') as Record<string, string>;
const dispatcher = new Agent({ connections: 64 });

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    void (async () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown };
      const answer = await request(url, { method: 'GET', dispatcher, headers });
      const vendors = JSON.parse(await answer.body.text()) as unknown;
      const payload = JSON.stringify({
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: JSON.stringify(vendors) }], structuredContent: { vendors } },
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) });
      res.end(payload);
    })().catch(() => {
      res.writeHead(502).end();
    });
  });
});
server.listen(0, '127.0.0.1', () => process.send?.((server.address() as { port: number }).port));
process.on('message', () => process.send?.(process.cpuUsage()));
process.on('disconnect', () => process.exit(0));
