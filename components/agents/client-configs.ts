/**
 * Ready-to-paste configuration for the MCP clients operators use most, from an endpoint
 * and a freshly created agent token. Each form is what that client reads from its own
 * file; the token goes in as written, since the operator is copying it into their own
 * machine's configuration anyway.
 */
export type ClientForm = "generic" | "claude" | "cursor" | "vscode" | "curl";

/**
 * In place of a token whose secret is not shown any more (any token but one just created):
 * the configuration is the same, the operator pastes the secret they kept.
 */
export const TOKEN_PLACEHOLDER = "<agent-token>";

export interface ClientConfig {
  form: ClientForm;
  label: string;
  /** Where the client reads it from. */
  where: string;
  text: string;
  /** The copy button's words. */
  copyLabel: string;
}

/** A server key clients accept in their maps: lower-case letters, digits and dashes. */
export function serverKey(identityName: string): string {
  const slug = identityName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return slug ? `quartermaster-${slug}` : "quartermaster";
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** tools/list over Streamable HTTP in one line: the quickest proof that the token works. */
export function curlListTools(endpoint: string, token: string): string {
  return [
    `curl -sS ${endpoint}`,
    `-H "Authorization: Bearer ${token}"`,
    `-H "Content-Type: application/json"`,
    `-H "Accept: application/json, text/event-stream"`,
    `-d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'`,
  ].join(" ");
}

export function clientConfigs(input: { endpoint: string; token: string; identityName: string }): ClientConfig[] {
  const { endpoint, token } = input;
  const key = serverKey(input.identityName);
  const authorization = `Bearer ${token}`;
  return [
    {
      form: "generic",
      label: "Generic",
      copyLabel: "Copy Generic configuration",
      where: "Any client that reads an mcpServers map with a URL and headers",
      text: json({ mcpServers: { [key]: { url: endpoint, headers: { Authorization: authorization } } } }),
    },
    {
      form: "claude",
      label: "Claude Desktop",
      copyLabel: "Copy Claude Desktop configuration",
      where: "claude_desktop_config.json (Settings → Developer → Edit Config); needs Node.js for npx",
      // Claude Desktop's file starts local processes only: mcp-remote bridges to a remote
      // server. The header travels through an environment variable because Claude Desktop
      // splits arguments on spaces ("Bearer <token>").
      text: json({
        mcpServers: {
          [key]: {
            command: "npx",
            // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote expands it, not JavaScript
            args: ["-y", "mcp-remote", endpoint, "--header", "Authorization:${AUTH_HEADER}"],
            env: { AUTH_HEADER: authorization },
          },
        },
      }),
    },
    {
      form: "cursor",
      label: "Cursor",
      copyLabel: "Copy Cursor configuration",
      where: "~/.cursor/mcp.json, or .cursor/mcp.json in a project",
      text: json({ mcpServers: { [key]: { url: endpoint, headers: { Authorization: authorization } } } }),
    },
    {
      form: "vscode",
      label: "VS Code",
      copyLabel: "Copy VS Code configuration",
      where: ".vscode/mcp.json in a workspace (or MCP: Open User Configuration)",
      text: json({ servers: { [key]: { type: "http", url: endpoint, headers: { Authorization: authorization } } } }),
    },
    {
      form: "curl",
      label: "curl",
      copyLabel: "Copy curl command",
      where: "A shell: lists the Tools this identity holds",
      text: curlListTools(endpoint, token),
    },
  ];
}
