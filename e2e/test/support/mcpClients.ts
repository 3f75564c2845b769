/**
 * The official MCP clients the end-to-end scenario runs with, behind one small adapter each:
 * v1 (@modelcontextprotocol/sdk, protocol 2025-11-25, served through the SDK v2 server's
 * stateless fallback) identified by dynamic client registration, and v2
 * (@modelcontextprotocol/client, protocol 2026-07-28) identified by a Client ID Metadata
 * Document served over https with a test CA. Only what differs between them lives here.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError as UnauthorizedV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { ElicitRequestSchema as ElicitRequestSchemaV1 } from '@modelcontextprotocol/sdk/types.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata as MetadataV1,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  UnauthorizedError as UnauthorizedV2,
  type OAuthClientMetadata as MetadataV2,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { TestOAuthProvider } from './oauthProvider.ts';
import type { ResourceContentsLike, ToolResultLike } from './scenario.ts';
import { createTestCa, startMetadataServer } from './tls.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * The questions the gateway asked the person (docs/mcp.md "Confirmation": posting, approving,
 * payments and e-mails made by an assistant), in order. The scenario's person says yes to each
 * (elicitation on 2025-era clients, input_required on 2026-07-28 ones).
 */
export const confirmationsAsked: string[] = [];

function personConfirms(message: string): { action: 'accept'; content: { confirm: true } } {
  confirmationsAsked.push(message);
  return { action: 'accept', content: { confirm: true } };
}

export interface Tokens {
  access_token: string;
  refresh_token?: string;
}

export interface ListedTool {
  name: string;
  annotations?: { destructiveHint?: boolean; readOnlyHint?: boolean };
}

/** What the scenario does with a connected client, the same for both SDKs. */
export interface ConnectedClient {
  serverName(): string | undefined;
  listTools(): Promise<ListedTool[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResultLike>;
  readResource(uri: string): Promise<ResourceContentsLike[]>;
  close(): Promise<void>;
}

/** One client's OAuth state and connections, against one company's MCP URL. */
export interface ClientSession {
  /** connects without tokens: true when the client was refused with its SDK's UnauthorizedError */
  connectUnauthorized(): Promise<boolean>;
  /** the authorization URL the client wanted to open */
  authorizationUrl(): URL | undefined;
  expectedState(): string;
  /** hands the authorization response to the transport that asked for it */
  finishAuth(callback: URL): Promise<void>;
  clientId(): string | undefined;
  tokens(): Tokens | undefined;
  setTokens(tokens: Tokens): void;
  connect(): Promise<ConnectedClient>;
}

/** How the client identifies itself to the authorization server. */
export interface ClientIdentity {
  /** gateway settings the identification needs */
  gatewayEnv: NodeJS.ProcessEnv;
  /** the Client ID Metadata Document URL (the client_id); absent: dynamic registration */
  metadataUrl?: string;
  /** how often the gateway fetched the metadata document */
  metadataFetches?(): number;
}

export interface McpClientAdapter {
  title: string;
  /** prefix of the records the scenario creates */
  label: string;
  clientName: string;
  redirect: string;
  /**
   * How the scenario ends the connection: from System → Management → AI connections, or by
   * reusing a rotated refresh token. Each client takes one, so both endings are covered.
   */
  ending: 'disconnect' | 'refresh-reuse';
  identify(t: Teardown): Promise<ClientIdentity>;
  session(mcpUrl: URL, identity: ClientIdentity, fetchFn: typeof fetch): ClientSession;
}

type RecordedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

function clientMetadata(adapter: Pick<McpClientAdapter, 'clientName' | 'redirect'>) {
  return {
    client_name: adapter.clientName,
    redirect_uris: [adapter.redirect],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

/** Both SDKs' clients have the same calls under the same names. */
function connected(client: ClientV1 | ClientV2): ConnectedClient {
  return {
    serverName: () => client.getServerVersion()?.name,
    listTools: async () => (await client.listTools()).tools,
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResultLike,
    readResource: async (uri) => (await client.readResource({ uri })).contents as ResourceContentsLike[],
    close: () => client.close(),
  };
}

/** What each SDK does its own way; the rest of a session is the same for both. */
interface SdkParts {
  /** connects with the transport that will later finish the authorization */
  connectFirst(): Promise<void>;
  isUnauthorized(e: unknown): boolean;
  finishAuth(callback: URL): Promise<void>;
  /** a new client, connected over a new transport */
  open(): Promise<ClientV1 | ClientV2>;
}

function sessionOf<I, T extends Tokens, M>(
  provider: TestOAuthProvider<I, T, M>,
  clientId: () => string | undefined,
  sdk: SdkParts,
): ClientSession {
  return {
    connectUnauthorized: () =>
      sdk.connectFirst().then(
        () => false,
        (e: unknown) => sdk.isUnauthorized(e),
      ),
    authorizationUrl: () => provider.authorizationUrl,
    expectedState: () => provider.expectedState,
    finishAuth: (callback) => sdk.finishAuth(callback),
    clientId,
    tokens: () => provider.tokens(),
    setTokens: (tokens) => provider.setTokens(tokens as T),
    connect: async () => connected(await sdk.open()),
  };
}

export const sdkV1: McpClientAdapter = {
  title: 'MCP client v1 (2025-11-25) with dynamic client registration',
  label: 'V1',
  clientName: 'E2E Assistant (SDK v1)',
  redirect: 'http://127.0.0.1:8977/callback',
  ending: 'disconnect',
  async identify() {
    return { gatewayEnv: {} };
  },
  session(mcpUrl, _identity, fetchFn) {
    const provider = new TestOAuthProvider<OAuthClientInformationMixed, OAuthTokens, MetadataV1>({
      redirectUrl: this.redirect,
      clientMetadata: clientMetadata(this) as MetadataV1,
    });
    const newTransport = () => new TransportV1(mcpUrl, { authProvider: provider, fetch: fetchFn as RecordedFetch });
    const newClient = () => {
      const client = new ClientV1({ name: 'e2e-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchemaV1, async (request) => personConfirms(request.params.message));
      return client;
    };
    const first = newTransport();
    return sessionOf(provider, () => provider.clientInformation()?.client_id, {
      connectFirst: () => newClient().connect(first),
      isUnauthorized: (e) => e instanceof UnauthorizedV1,
      finishAuth: (callback) => first.finishAuth(callback.searchParams.get('code')!),
      open: async () => {
        const client = newClient();
        await client.connect(newTransport());
        return client;
      },
    });
  },
};

export const sdkV2: McpClientAdapter = {
  title: 'MCP client v2 (2026-07-28) with a Client ID Metadata Document',
  label: 'V2',
  clientName: 'E2E Assistant (SDK v2)',
  redirect: 'http://127.0.0.1:8976/callback',
  ending: 'refresh-reuse',
  async identify(t) {
    const ca = createTestCa();
    const metadataServer = await startMetadataServer(ca);
    t.teardown(() => metadataServer.close());
    const metadataUrl = metadataServer.publish('/clients/e2e-v2.json', (id) => ({
      client_id: id,
      ...clientMetadata(this),
    }));
    return {
      gatewayEnv: { GATEWAY_TEST_CIMD_CA: ca.caFile, GATEWAY_TEST_CIMD_ALLOW_PRIVATE: '1' },
      metadataUrl,
      metadataFetches: () => metadataServer.fetches.get('/clients/e2e-v2.json') ?? 0,
    };
  },
  session(mcpUrl, identity, fetchFn) {
    const provider = new TestOAuthProvider<StoredOAuthClientInformation, StoredOAuthTokens, MetadataV2>({
      redirectUrl: this.redirect,
      clientMetadata: clientMetadata(this) as MetadataV2,
      clientMetadataUrl: identity.metadataUrl,
    });
    const newTransport = () => new TransportV2(mcpUrl, { authProvider: provider, fetch: fetchFn as RecordedFetch });
    const newClient = () => {
      const client = new ClientV2(
        { name: 'e2e-v2', version: '1.0.0' },
        { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler('elicitation/create', async (request) => personConfirms(request.params.message));
      return client;
    };
    const first = newTransport();
    return sessionOf(provider, () => identity.metadataUrl, {
      connectFirst: () => newClient().connect(first),
      isUnauthorized: (e) => e instanceof UnauthorizedV2,
      finishAuth: (callback) => first.finishAuth(callback.searchParams),
      open: async () => {
        const client = newClient();
        await client.connect(newTransport());
        return client;
      },
    });
  },
};

export const MCP_CLIENTS: readonly McpClientAdapter[] = [sdkV1, sdkV2];
