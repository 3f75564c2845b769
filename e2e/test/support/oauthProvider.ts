/**
 * An in-memory OAuth client provider for the official MCP clients (v2 and v1 share the
 * shape). Instead of opening a browser, `redirectToAuthorization` records the URL; the test
 * then drives sign-in and consent over HTTP (browser.ts) and hands the code to the transport.
 */
export interface ProviderOptions<Meta> {
  redirectUrl: string;
  clientMetadata: Meta;
  /** set to use a Client ID Metadata Document instead of dynamic registration */
  clientMetadataUrl?: string;
}

export class TestOAuthProvider<Info, Tokens, Meta> {
  readonly clientMetadataUrl: string | undefined;
  private info: Info | undefined;
  private stored: Tokens | undefined;
  private verifier = '';
  private lastState = '';
  /** the authorization URL the client wanted to open, once it asked */
  authorizationUrl: URL | undefined;
  /** every token response saved, newest last (to test refresh rotation and reuse) */
  readonly savedTokens: Tokens[] = [];

  constructor(private readonly opts: ProviderOptions<Meta>) {
    this.clientMetadataUrl = opts.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.opts.redirectUrl;
  }

  get clientMetadata(): Meta {
    return this.opts.clientMetadata;
  }

  state(): string {
    this.lastState = `st-${Math.random().toString(36).slice(2)}`;
    return this.lastState;
  }

  get expectedState(): string {
    return this.lastState;
  }

  clientInformation(): Info | undefined {
    return this.info;
  }

  saveClientInformation(info: Info): void {
    this.info = info;
  }

  tokens(): Tokens | undefined {
    return this.stored;
  }

  saveTokens(tokens: Tokens): void {
    this.stored = tokens;
    this.savedTokens.push(tokens);
  }

  /** replace the stored tokens (e.g. to present an old refresh token again) */
  setTokens(tokens: Tokens | undefined): void {
    this.stored = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(v: string): void {
    this.verifier = v;
  }

  codeVerifier(): string {
    return this.verifier;
  }
}
