/**
 * Webhook targets, checked like the gateway's client metadata documents (SSRF-safe), by the
 * same guard (shared/src/network/specialAddresses.ts): the URL rules first (rules.ts), then
 * every address the host resolves to must lie in no special-purpose range — checked again on
 * the address actually connected to at each delivery (the agent's DNS lookup), so a name that
 * later resolves to 10.0.0.1 or 127.0.0.1 is never called. Redirects are not followed, answers
 * are read up to 64 KB, a delivery has 10 s.
 * Loopback targets (and http to them) only with WEBHOOKS_ALLOW_LOOPBACK=1 (development, tests).
 * A refusal says that the address may not be called, never which address the name resolved to:
 * the answer would otherwise map the inside of our network for whoever registers a target.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { ADDRESS_REFUSED, isLoopbackAddress, isPublicAddress } from '@ledger/shared/network/specialAddresses';
import { Agent, request, type Dispatcher } from 'undici';
import { webhookUrlProblem } from './rules.ts';

export const TARGET_LIMITS = { timeoutMs: 10_000, maxAnswerBytes: 64 * 1024 };

export class TargetRefused extends Error {}

/** May a delivery go to this address? Outside every special-purpose range always; loopback only where allowed. */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  return isPublicAddress(address) || (allowLoopback && isLoopbackAddress(address));
}

/** The problem with a target URL (its rules and what its host resolves to now), or undefined. */
export async function targetProblem(url: string, allowLoopback: boolean): Promise<string | undefined> {
  const problem = webhookUrlProblem(url, allowLoopback);
  if (problem) return problem;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await dnsLookupAsync(host, { all: true })).map((a) => a.address);
  } catch {
    return `the host ${host} could not be resolved`;
  }
  if (addresses.length === 0 || addresses.some((a) => !addressAllowed(a, allowLoopback)))
    return `the host ${host} ${ADDRESS_REFUSED}`;
  if (new URL(url).protocol === 'http:' && !addresses.every((a) => isLoopbackAddress(a)))
    return 'the URL must use https';
  return undefined;
}

function safeLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return (callback as (e: Error | null) => void)(err);
      if (addresses.length === 0 || addresses.some((a) => !addressAllowed(a.address, allowLoopback))) {
        const e = new TargetRefused(`${hostname} ${ADDRESS_REFUSED}`);
        return (callback as (e: Error | null) => void)(e);
      }
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      return (callback as (e: null, a: string, f: number) => void)(null, first.address, first.family);
    });
  };
}

export interface PostResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Posts one delivery; never throws: a refusal, timeout or dropped connection is an `error`. */
export class TargetClient {
  private readonly agent: Dispatcher;

  constructor(
    private readonly allowLoopback: boolean,
    private readonly timeoutMs = TARGET_LIMITS.timeoutMs,
  ) {
    this.agent = new Agent({
      connect: { lookup: safeLookup(allowLoopback), timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connections: 16,
    });
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const problem = webhookUrlProblem(url, this.allowLoopback);
      if (problem) throw new TargetRefused(problem);
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && !addressAllowed(host, this.allowLoopback)) throw new TargetRefused(`${host} may not be called`);
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: { ...headers, 'user-agent': 'ledger-webhooks/1' },
        body,
      });
      // the answer's body is not needed: read at most a little of it, then let the rest go
      await drain(res);
      return { statusCode: res.statusCode, error: null, durationMs: elapsed() };
    } catch (err) {
      return { statusCode: null, error: describe(err, this.timeoutMs), durationMs: elapsed() };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

async function drain(res: Dispatcher.ResponseData): Promise<void> {
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > TARGET_LIMITS.maxAnswerBytes) break;
    }
  } finally {
    res.body.destroy();
  }
}

function describe(err: unknown, timeoutMs: number): string {
  const cause = err instanceof Error && err.cause instanceof TargetRefused ? err.cause : err;
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  if (cause.name === 'TimeoutError' || (typeof code === 'string' && code.endsWith('_TIMEOUT')))
    return `no answer within ${timeoutMs / 1000} s`;
  return cause.message;
}
