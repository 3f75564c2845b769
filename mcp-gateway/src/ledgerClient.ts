/**
 * The gateway's client for the ledger (undici). Internal calls carry a short-lived JWT for
 * the audience `ledger-internal`; calls made for a connection carry the service credential
 * of docs/oauth.md "Gateway ↔ ledger" (audience `ledger-service`), signed with the same key.
 */
import { randomUUID } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import { SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import {
  INTERNAL_CREDENTIAL,
  internalContracts,
  isDatasetName,
  SERVICE_CREDENTIAL,
  type BodyOf,
  type Contract,
  type ParamsOf,
  type ResponseOf,
} from '@ledger/shared';
import type { GatewayKeys } from './keys.ts';
import { bareOrigin, ledgerTarget } from './ledgerTarget.ts';
import { currentRequestId } from './requestContext.ts';
import { bodyBytes, bodyText, headersOf, requestWhole, type WholeResponse } from './wholeResponse.ts';

export class LedgerUnavailableError extends Error {}

// The internal API's shapes, from its contracts (shared/src/contracts/internal.ts): what the
// ledger validates and answers is what these types say, with no copy to drift.
type Internal = typeof internalContracts;
export type LedgerUser = NonNullable<ResponseOf<Internal['verifyCredentials']>['user']>;
/** What the ledger says of a sign-in's three factors. */
export type SignInCheck =
  | { user: LedgerUser; refused?: undefined }
  | { refused: 'code_used'; nextCodeInSeconds: number }
  | { refused: 'invalid' };
export type LedgerCompany = ResponseOf<Internal['getCompany']>['company'];
export type MemberInfo = ResponseOf<Internal['getMember']>;
export type Membership = ResponseOf<Internal['listMemberships']>['memberships'][number];
export type ConnectionAuditEntry = BodyOf<Internal['auditConnection']>;
export type PersonInvitations = ResponseOf<Internal['listInvitationsOfUser']>;
export type AcceptedMembership = ResponseOf<Internal['acceptInvitation']>['membership'];

/** The shape of an invitation link's token (modules/members in the ledger); anything else is not sent on. */
const INVITATION_TOKEN = /^inv_[A-Za-z0-9_-]{32}$/;

/** `/companies/:dataset` with its parameters written in (each encoded). */
export function internalPath<C extends Contract>(contract: C, params: ParamsOf<C>): string {
  const values = params as Readonly<Record<string, string | number>>;
  return contract.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${contract.name}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}

/** What a service credential is issued for. */
export interface CredentialSubject {
  id: string;
  userId: number | string;
  dataset: string;
  scopes: readonly string[];
  clientName: string;
  /** 'app': the signed-in person on the gateway's app pages (no connection; audited "via app") */
  kind?: 'ai_connection' | 'app';
}

export type LedgerMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A file the ledger answered with (download contracts, e.g. an invoice PDF). */
export interface LedgerFile {
  mediaType: string;
  /** from Content-Disposition, when given */
  name?: string;
  data: Buffer;
}

export interface LedgerAnswer {
  status: number;
  body: unknown;
  /** set instead of body when a success answer is neither JSON nor text */
  file?: LedgerFile;
  /** the ledger confirmed the connection's preconditions for this request (X-Connection-Checked) */
  connectionChecked: boolean;
}

/** A signed JWT is reused until this long before it expires. */
export const CREDENTIAL_REUSE_MARGIN_MS = 10_000;

interface Signed {
  token: Promise<string>;
  /** the token once signed: a call reusing it need not wait for the promise */
  value?: string;
  /** epoch ms after which it is not handed out any more */
  reuseUntil: number;
}

/**
 * The cache key of a service credential: every claim it carries, so a credential is only
 * ever reused for exactly the same connection, person, dataset, scopes and client name.
 */
export function credentialKey(c: CredentialSubject): string {
  return JSON.stringify([
    c.id,
    String(c.userId),
    c.dataset,
    [...c.scopes].join(' '),
    c.clientName,
    c.kind ?? 'ai_connection',
  ]);
}

/** Answers read as bytes rather than text: anything but JSON and text (PDF, images, octet streams). */
function isFileMediaType(mediaType: string): boolean {
  return (
    mediaType !== '' &&
    !mediaType.startsWith('text/') &&
    mediaType !== 'application/json' &&
    !mediaType.endsWith('+json')
  );
}

/**
 * The media type of a Content-Type header (before any parameter), lower case; '' without one.
 * Cut at the `;` rather than split into an array: this runs on every ledger answer.
 */
function mediaTypeOf(header: string | string[] | undefined): string {
  const value = String(header ?? '');
  const semicolon = value.indexOf(';');
  return (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

/** The file name of a Content-Disposition header (`filename="x.pdf"`). */
function fileNameOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value ? /filename="?([^";]+)"?/i.exec(value)?.[1] : undefined;
}

/** A ledger call that got no answer: the ledger cannot be reached. */
function ledgerUnreachable(err: Error): LedgerUnavailableError {
  return new LedgerUnavailableError(`ledger unreachable: ${err.message}`);
}

/** A ledger call's headers: the credential, JSON, the request being served, then `extra` as given. */
function ledgerHeaders(token: string, body: unknown, extra: Readonly<Record<string, string>>): Record<string, string> {
  // set one by one rather than spread from conditional objects: this runs on every MCP call
  const sent: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (body !== undefined && typeof body !== 'string') sent['content-type'] = 'application/json';
  // the request being served, so the ledger's log lines carry the gateway's id
  const requestId = currentRequestId();
  if (requestId !== undefined) sent['x-request-id'] = requestId;
  for (const name in extra) sent[name] = extra[name]!;
  return sent;
}

/** The headers of a ledger answer read (ledgerAnswerOf). */
const ANSWER_HEADERS = ['x-connection-checked', 'content-type', 'content-disposition'] as const;

/** A ledger answer: a file's bytes (a 2xx of a file media type), else the body's JSON (or its text when not JSON). */
function ledgerAnswerOf(res: WholeResponse): LedgerAnswer {
  const [checked, contentType, disposition] = headersOf(res, ANSWER_HEADERS);
  const connectionChecked = checked === 'allowed';
  const mediaType = mediaTypeOf(contentType);
  if (res.statusCode >= 200 && res.statusCode < 300 && isFileMediaType(mediaType)) {
    const name = fileNameOf(disposition);
    return {
      status: res.statusCode,
      body: undefined,
      file: { mediaType, ...(name ? { name } : {}), data: bodyBytes(res) },
      connectionChecked,
    };
  }
  const text = bodyText(res);
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.statusCode, body: parsed, connectionChecked };
}

export class LedgerClient {
  readonly dispatcher: Dispatcher;

  /**
   * Signed credentials, reused until shortly before they expire: an EdDSA signature per
   * call was a measurable part of the gateway's CPU. The ledger checks the person's standing
   * on every request whatever the credential's age, so reuse does not delay any refusal.
   *
   * An entry leaves the heap when the credential has expired (ttl = its lifetime, with
   * ttlAutopurge; whether one is still handed out is decided by `reuseUntil` on the gateway's
   * clock, as before). Without that, every connection's last credential (≈ 1.5 KB) stayed
   * until 10,000 newer connections pushed it out (docs/benchmarks.md "Gateway soak").
   *
   * `ttlResolution: 0`: the cache reads the clock on every lookup instead of remembering it
   * for a millisecond with a timer of its own — that timer was one more wake-up of the
   * process per MCP call (docs/benchmarks.md "Gateway").
   */
  private readonly credentials = new LRUCache<string, Signed>({
    max: 10_000,
    ttl: SERVICE_CREDENTIAL.maxLifetimeSeconds * 1000,
    ttlAutopurge: true,
    ttlResolution: 0,
  });
  private internalSigned: Signed | undefined;
  /**
   * The base URL when it is a bare origin: a plain path then goes to the dispatcher unparsed
   * (ledgerTarget.ts). Read again whenever `baseUrl` is another string than the one it was read
   * from (tests point a running client elsewhere).
   */
  private origin: string | undefined;
  private originOf: string | undefined;

  constructor(
    readonly baseUrl: string,
    private readonly keys: GatewayKeys,
    private readonly now: () => number = Date.now,
  ) {
    this.dispatcher = new Agent({
      connections: 64,
      keepAliveTimeout: 4_000,
      headersTimeout: 30_000,
      bodyTimeout: 120_000,
    });
  }

  private fresh(sign: () => Promise<string>, lifetimeSeconds: number): Signed {
    const reuseUntil = this.now() + lifetimeSeconds * 1000 - CREDENTIAL_REUSE_MARGIN_MS;
    const signed: Signed = { token: sign(), reuseUntil };
    signed.token.then(
      (value) => {
        signed.value = value;
      },
      () => {
        signed.reuseUntil = 0;
      },
    );
    return signed;
  }

  /** The service credential for one connection (cached per exact claim set; see credentialKey). */
  async serviceCredential(c: CredentialSubject): Promise<string> {
    return this.credential(c).token;
  }

  private credential(c: CredentialSubject): Signed {
    const key = this.keyOf(c);
    const hit = this.credentials.get(key);
    if (hit && hit.reuseUntil > this.now()) return hit;
    const signed = this.fresh(() => this.signServiceCredential(c), SERVICE_CREDENTIAL.maxLifetimeSeconds);
    this.credentials.set(key, signed);
    return signed;
  }

  /**
   * credentialKey, remembered for a frozen subject: the MCP endpoint's connection of a token is
   * one frozen object for as long as its row is unchanged (oauth/connections.ts), so its every
   * call need not serialise the same claims again.
   */
  private readonly subjectKeys = new WeakMap<CredentialSubject, string>();

  private keyOf(c: CredentialSubject): string {
    if (!Object.isFrozen(c)) return credentialKey(c);
    let key = this.subjectKeys.get(c);
    if (key === undefined) {
      key = credentialKey(c);
      this.subjectKeys.set(c, key);
    }
    return key;
  }

  /** Forgets the cached credential of a connection (e.g. when it ended). */
  forgetCredentials(connectionId: string): void {
    for (const key of this.credentials.keys())
      if ((JSON.parse(key) as string[])[0] === connectionId) this.credentials.delete(key);
  }

  /** A newly signed service credential for one connection: EdDSA JWT, 60 s, audience ledger-service. */
  async signServiceCredential(c: CredentialSubject): Promise<string> {
    return new SignJWT({
      dataset: c.dataset,
      conn: c.id,
      scope: c.scopes.join(' '),
      client_name: c.clientName,
      ...(c.kind === 'app' ? { kind: 'app' } : {}),
    })
      .setProtectedHeader({ alg: SERVICE_CREDENTIAL.algorithm })
      .setIssuer(SERVICE_CREDENTIAL.issuer)
      .setAudience(SERVICE_CREDENTIAL.audience)
      .setSubject(String(c.userId))
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${SERVICE_CREDENTIAL.maxLifetimeSeconds}s`)
      .sign(this.keys.privateKey);
  }

  private async internalToken(): Promise<string> {
    const hit = this.internalSigned;
    if (hit && hit.reuseUntil > this.now()) return hit.token;
    this.internalSigned = this.fresh(() => this.signInternalToken(), INTERNAL_CREDENTIAL.maxLifetimeSeconds);
    return this.internalSigned.token;
  }

  private async signInternalToken(): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: INTERNAL_CREDENTIAL.algorithm })
      .setIssuer(INTERNAL_CREDENTIAL.issuer)
      .setAudience(INTERNAL_CREDENTIAL.audience)
      .setSubject(INTERNAL_CREDENTIAL.subject)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${INTERNAL_CREDENTIAL.maxLifetimeSeconds}s`)
      .sign(this.keys.privateKey);
  }

  /**
   * One call to the ledger, its answer read whole (wholeResponse.ts). Not an async function:
   * its one promise is the response's, the MCP endpoint makes this call for every tool call;
   * what throws here rejects, as it would from an async function.
   */
  private send(
    method: LedgerMethod,
    path: string,
    token: string,
    body?: unknown,
    headers: Readonly<Record<string, string>> = {},
  ): Promise<LedgerAnswer> {
    let options: Dispatcher.DispatchOptions;
    try {
      // the dispatcher's own request: undici's `request(url)` would parse the URL on every call
      if (this.originOf !== this.baseUrl) {
        this.originOf = this.baseUrl;
        this.origin = bareOrigin(this.baseUrl);
      }
      const { origin, path: target } = ledgerTarget(this.baseUrl, this.origin, path);
      options = {
        origin,
        path: target,
        method,
        headers: ledgerHeaders(token, body, headers),
        // a string is a file's text sent as it is (a bank statement: its Content-Type among `headers`)
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      };
    } catch (err) {
      // nothing was sent: a target or body that cannot be sent counts as the ledger unreachable
      return Promise.reject(ledgerUnreachable(err as Error));
    }
    return requestWhole(this.dispatcher, options, ledgerAnswerOf, ledgerUnreachable);
  }

  /**
   * Calls the ledger's REST API as the connected person (for the MCP endpoint). `headers`
   * go along as given (e.g. an Idempotency-Key); the request id is added by itself.
   */
  callAs(
    c: CredentialSubject,
    method: LedgerMethod,
    path: string,
    body?: unknown,
    headers?: Readonly<Record<string, string>>,
  ): Promise<LedgerAnswer> {
    // a credential already signed is used at once, without waiting for its promise (every call but the first)
    const signed = this.credential(c);
    if (signed.value !== undefined) return this.send(method, path, signed.value, body, headers);
    return signed.token.then((token) => this.send(method, path, token, body, headers));
  }

  /**
   * Calls the ledger's REST API as the signed-in person of the app pages: the same short-lived
   * service credential as an MCP call, of kind 'app' (the role's own permissions and approval
   * limit; the audit log reads "via app"). `path` is below /client/{dataset}.
   */
  async callAsPerson(
    person: { userId: number; dataset: string },
    method: LedgerMethod,
    path: string,
    body?: unknown,
    headers?: Readonly<Record<string, string>>,
  ) {
    const subject: CredentialSubject = {
      id: `app:${person.userId}`,
      userId: person.userId,
      dataset: person.dataset,
      scopes: [],
      clientName: 'app',
      kind: 'app',
    };
    return this.send(method, `/client/${person.dataset}${path}`, await this.serviceCredential(subject), body, headers);
  }

  /**
   * Calls one internal contract: the path from its parameters, the body and the answer typed
   * by its schemas. A 404 is `undefined` where the caller asked for it (`allow404`).
   */
  private async internal<C extends Contract>(
    contract: C,
    params: ParamsOf<C>,
    body?: BodyOf<C>,
    allow404 = false,
  ): Promise<ResponseOf<C> | undefined> {
    const path = `/internal${internalPath(contract, params)}`;
    const res = await this.send(contract.method, path, await this.internalToken(), body);
    if (res.status === 404 && allow404) return undefined;
    if (res.status >= 200 && res.status < 300) return res.body as ResponseOf<C>;
    if (res.status === 403) throw new LedgerForbiddenError(messageOf(res.body));
    throw new LedgerUnavailableError(
      `ledger answered ${res.status} to ${contract.method} ${path}: ${messageOf(res.body)}`,
    );
  }

  /** An internal API call answered as is (status and body), e.g. for the MCP endpoint's tool listing. */
  async callInternal(method: LedgerMethod, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    return this.send(method, path, await this.internalToken(), body);
  }

  /**
   * Email + password + TOTP: the user; `code_used` when the password is right and the code was
   * already used to sign in (with when the next code comes); `invalid` for anything else.
   */
  async verifyCredentials(email: string, password: string, totp: string): Promise<SignInCheck> {
    const r = await this.internal(internalContracts.verifyCredentials, {}, { email, password, totp });
    if (r?.valid && r.user) return { user: r.user };
    if (r?.reason === 'code_used') return { refused: 'code_used', nextCodeInSeconds: r.next_code_in_seconds ?? 30 };
    return { refused: 'invalid' };
  }

  async company(dataset: string): Promise<LedgerCompany | undefined> {
    if (!isDatasetName(dataset)) return undefined; // anything else is not looked up at all
    return (await this.internal(internalContracts.getCompany, { dataset }, undefined, true))?.company;
  }

  /** The person's standing in the company; undefined when the company does not exist. */
  async member(dataset: string, userId: number): Promise<MemberInfo | undefined> {
    if (!isDatasetName(dataset)) return undefined; // anything else is not looked up at all
    return this.internal(internalContracts.getMember, { dataset, userId: String(userId) }, undefined, true);
  }

  async memberships(userId: number): Promise<Membership[]> {
    return (await this.internal(internalContracts.listMemberships, { userId: String(userId) }))?.memberships ?? [];
  }

  /**
   * The person's open invitations, and which one `token` (an e-mail link's) names. The token
   * travels in the query, which neither service writes to its request log.
   */
  async invitations(userId: number, token?: string): Promise<PersonInvitations> {
    const path = `/internal${internalPath(internalContracts.listInvitationsOfUser, { userId: String(userId) })}`;
    const query = token !== undefined && INVITATION_TOKEN.test(token) ? `?token=${encodeURIComponent(token)}` : '';
    const res = await this.send('GET', `${path}${query}`, await this.internalToken());
    if (res.status === 200) return res.body as PersonInvitations;
    throw new LedgerUnavailableError(`ledger answered ${res.status} to GET ${path}: ${messageOf(res.body)}`);
  }

  /**
   * Accepts an invitation as the person: the membership, or why not (`gone`: not open or not
   * addressed to this person's account; `member`: already a member).
   */
  async acceptInvitation(userId: number, invitationId: number): Promise<AcceptedMembership | 'gone' | 'member'> {
    const contract = internalContracts.acceptInvitation;
    const path = `/internal${internalPath(contract, { userId: String(userId), invitationId: String(invitationId) })}`;
    const res = await this.send(contract.method, path, await this.internalToken());
    if (res.status === 200) return (res.body as ResponseOf<typeof contract>).membership;
    if (res.status === 404) return 'gone';
    if (res.status === 409) return 'member';
    throw new LedgerUnavailableError(`ledger answered ${res.status} to POST ${path}: ${messageOf(res.body)}`);
  }

  /**
   * Switches AI connections; the ledger checks that the person is an active owner/admin and
   * writes the switch and its audit entry in one transaction.
   */
  async setAiConnections(dataset: string, userId: number, enabled: boolean): Promise<void> {
    await this.internal(internalContracts.setAiConnections, { dataset }, { enabled, user_id: userId });
  }

  /** Records an AI connection's start (and the connections it replaced) or end in the company's audit log. */
  async auditConnection(dataset: string, entry: ConnectionAuditEntry): Promise<void> {
    await this.internal(internalContracts.auditConnection, { dataset }, entry);
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

export class LedgerForbiddenError extends Error {}

function messageOf(body: unknown): string {
  const m = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof m === 'string' ? m : 'no message';
}
