/**
 * Listening ports, checked the way settings are: a port another program holds is a
 * configuration problem, answered with one line naming the variable and the port (exit code
 * 2), not a stack trace after half of the start has happened.
 */
import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { ConfigError } from './config.ts';

/** The port a variable names is held by another program (or may not be opened by this one). */
export class PortUnavailableError extends ConfigError {
  constructor(
    readonly variable: string,
    readonly port: number,
    readonly host: string,
    code: string | undefined,
  ) {
    super(
      code === 'EACCES'
        ? `${variable}: port ${port} on ${host} may not be opened by this user; set ${variable} to a port above 1023`
        : `${variable}: port ${port} on ${host} is in use by another program; stop it or set ${variable} to a ` +
            `free port`,
    );
  }
}

/** The variable naming the address each port variable is listened on. */
const HOST_VARIABLE: Readonly<Record<string, string>> = {
  PORT: 'HOST',
  LEDGER_PORT: 'LEDGER_HOST',
  GATEWAY_METRICS_PORT: 'GATEWAY_METRICS_HOST',
};

function portError(err: unknown, variable: string, port: number, host: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES') return new PortUnavailableError(variable, port, host, code);
  // a host that is no address of this machine (or no name at all) is a bad setting too
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAFNOSUPPORT') {
    return new ConfigError(
      `${HOST_VARIABLE[variable] ?? variable}: cannot listen on "${host}" (${code}): not an address of this machine`,
    );
  }
  return err;
}

/** `server.listen(port, host)`; resolves with the port listened on, rejects with PortUnavailableError. */
export function listenOn(server: Server, port: number, host: string, variable: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const onError = (err: unknown) => reject(portError(err, variable, port, host));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export interface PortClaim {
  variable: string;
  host: string;
  /** 0: any free port (the claim then names the one it got) */
  port: number;
}

export interface HeldPorts {
  /** the port each variable got, by variable name (a 0 replaced by the port the system chose) */
  ports: Record<string, number>;
  /** lets go of every port, so the services can listen on them */
  release(): Promise<void>;
}

/**
 * Holds every port of `claims` at once (a plain TCP listener on each), so a taken one is
 * found before anything is written. All are tried; the first one taken (in the order given)
 * is the error, and the ones that were held are let go again.
 */
export async function holdPorts(claims: readonly PortClaim[]): Promise<HeldPorts> {
  const servers: { claim: PortClaim; server: ReturnType<typeof createServer> }[] = [];
  const results = await Promise.allSettled(
    claims.map(async (claim) => {
      // a client that connects meanwhile (a health check polling the port) is cut at once: a
      // connection left open would keep close() in release() from finishing
      const server = createServer((socket) => socket.destroy());
      const port = await new Promise<number>((resolve, reject) => {
        server.once('error', (err) => reject(portError(err, claim.variable, claim.port, claim.host)));
        server.listen(claim.port, claim.host, () => resolve((server.address() as AddressInfo).port));
      });
      servers.push({ claim, server });
      return port;
    }),
  );
  const release = async () => {
    await Promise.all(servers.map(({ server }) => new Promise<void>((resolve) => server.close(() => resolve()))));
    servers.length = 0;
  };
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await release();
    throw failed.reason;
  }
  const ports: Record<string, number> = {};
  claims.forEach((claim, i) => {
    ports[claim.variable] = (results[i] as PromiseFulfilledResult<number>).value;
  });
  return { ports, release };
}
