/**
 * The client's IP address, for the per-address limits (registration, sign-in backoff) and
 * the logs. X-Forwarded-For is read only when TRUST_PROXY names how many reverse proxies
 * stand in front of the gateway; each of them appends the address it received the request
 * from. Of the chain `X-Forwarded-For entries…, socket peer`, the last `hops` addresses are
 * those proxies' own view, so the client is the entry `hops` places left of the peer.
 * Whatever a client writes into X-Forwarded-For itself lies further left and is never used.
 * Without TRUST_PROXY the peer address is the client, whatever the header says.
 */
import ipaddr from 'ipaddr.js';

export function clientIp(peer: string, forwardedFor: string | string[] | undefined, hops: number): string {
  if (hops <= 0 || forwardedFor === undefined) return peer;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const chain = [
    ...header
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    peer,
  ];
  // a chain shorter than configured (a request that skipped a proxy): its first address
  const candidate = chain[Math.max(0, chain.length - 1 - hops)]!;
  // a trusted proxy writes an address; anything else means the header is not the proxies'
  return ipaddr.isValid(candidate) ? ipaddr.process(candidate).toString() : peer;
}
