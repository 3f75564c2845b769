/**
 * The request id of the request being served, wherever the code runs for it (page routes,
 * the MCP SDK's tool handlers, the ledger client): the gateway's log lines carry it
 * (logger.ts) and every call to the ledger sends it as X-Request-Id (ledgerClient.ts,
 * http/proxy.ts), so one id joins both services' logs for one request.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

interface RequestScope {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** A caller's X-Request-Id is kept when it is at most 128 safe characters; otherwise the gateway makes one. */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(incoming: string | undefined): string {
  return incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
