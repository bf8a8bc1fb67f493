import { ZCreateMcpConnectionInput } from "@/universal/source-schemas";

export type ConnectionField = "name" | "url" | "description" | "headers" | "checkIntervalSeconds";

export interface ConnectionValues {
  name: string;
  url: string;
  description?: string;
  headers?: Record<string, string>;
  checkIntervalSeconds: number;
  reviewPolicy?: "review" | "trust";
}

const LABELS: Record<ConnectionField, string> = {
  name: "Name",
  url: "URL",
  description: "Description",
  headers: "Auth headers",
  checkIntervalSeconds: "Check interval",
};

/**
 * Every problem of an MCP Connection form at once, one plain sentence per field, by the
 * same schema the server applies (universal/source-schemas.ts) plus what a browser
 * can tell about an address. The server still decides: its URL policy (loopback, private
 * ranges) and name uniqueness are checked on save and shown under their fields.
 */
export function connectionProblems(values: ConnectionValues): Partial<Record<ConnectionField, string>> {
  const problems: Partial<Record<ConnectionField, string>> = {};
  const parsed = ZCreateMcpConnectionInput.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "") as ConnectionField;
      if (!(field in LABELS) || problems[field]) continue;
      problems[field] = sentence(field, issue.message, issue.path.slice(1).map(String));
    }
  }
  const url = values.url.trim();
  if (url && !problems.url) {
    const parsedUrl = URL.canParse(url) ? new URL(url) : null;
    if (!parsedUrl) problems.url = "This is not a web address: write it in full, e.g. https://mcp.example.com/mcp.";
    else if (parsedUrl.protocol !== "https:" && parsedUrl.protocol !== "http:")
      problems.url = `Use an http:// or https:// address (this one starts with ${parsedUrl.protocol}//).`;
  }
  return problems;
}

function sentence(field: ConnectionField, message: string, rest: string[]): string {
  if (field === "name" && message === "is required") return "Give the Connection a name.";
  if (field === "url" && message === "is required")
    return "Enter the server’s Streamable HTTP address, e.g. https://mcp.example.com/mcp.";
  if (field === "headers" && rest[0] && /invalid key/i.test(message))
    return `“${rest[0]}” is not a header name: use letters, digits and dashes, no spaces.`;
  if (field === "headers" && rest[0]) return `The header “${rest[0]}” ${message}.`;
  return `${LABELS[field]} ${message}.`;
}

/** Every field a server refusal names (its issues, or its one field), in plain words. */
export function serverProblems(error: unknown): Partial<Record<ConnectionField, string>> {
  const data = (error as { data?: { details?: { field?: unknown; issues?: unknown } | null } } | null)?.data;
  const issues = data?.details?.issues;
  const problems: Partial<Record<ConnectionField, string>> = {};
  if (Array.isArray(issues)) {
    for (const i of issues as { path: string; message: string }[]) {
      const [field, ...rest] = i.path.split(".") as [ConnectionField, ...string[]];
      if (field in LABELS && !problems[field]) problems[field] = sentence(field, i.message, rest);
    }
  }
  return problems;
}
