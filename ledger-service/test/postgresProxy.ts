import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { TEST_DATABASE_URL } from './helpers.ts';

/**
 * A TCP proxy in front of the test Postgres that a test can cut and restore (start again, on the
 * same port): a real outage for what connects through it only.
 */
export class PostgresProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;
  private readonly target = new URL(TEST_DATABASE_URL);

  /** The test database's URL, through the proxy. */
  get url(): string {
    const u = new URL(TEST_DATABASE_URL);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 5432), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Refuses new connections and cuts the open ones, as a database outage does. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}
