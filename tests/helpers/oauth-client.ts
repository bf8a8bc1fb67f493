/**
 * The MCP SDK's OAuth client state as a desktop client keeps it, in memory: what it
 * registered, its tokens and PKCE verifier, and the authorization URL it would open in a
 * browser (the tests open it themselves: over HTTP, or in Playwright).
 */
import type { OAuthClientMetadata, OAuthClientProvider } from "@modelcontextprotocol/client";

export class MemoryOAuthProvider implements OAuthClientProvider {
  info: Awaited<ReturnType<NonNullable<OAuthClientProvider["clientInformation"]>>>;
  saved: Awaited<ReturnType<OAuthClientProvider["tokens"]>>;
  verifier = "";
  authorizationUrl: URL | null = null;
  /** Set for a client known by its metadata document: the SDK then sends this URL as its client_id. */
  clientMetadataUrl?: string;

  constructor(
    readonly redirect: string,
    readonly clientName: string,
    private readonly stateValue = "state-123",
  ) {}

  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return this.stateValue;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: typeof this.info) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: typeof this.saved) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}
