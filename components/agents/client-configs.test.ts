import { describe, expect, it } from "vitest";
import { clientConfigs, curlListTools, serverKey, TOKEN_PLACEHOLDER } from "./client-configs";

const input = {
  endpoint: "https://qm.example.com/mcp",
  token: "qm_agent_abc123",
  identityName: "Support agent (demo)",
};

describe("client configurations", () => {
  it("names the server after the identity, in characters every client accepts", () => {
    expect(serverKey("Support agent (demo)")).toBe("quartermaster-support-agent-demo");
    expect(serverKey("  ***  ")).toBe("quartermaster");
  });

  it("gives each client the URL and the bearer header in the shape it reads", () => {
    const byForm = Object.fromEntries(clientConfigs(input).map((c) => [c.form, c.text]));
    const key = "quartermaster-support-agent-demo";
    const remote = { url: input.endpoint, headers: { Authorization: "Bearer qm_agent_abc123" } };
    expect(JSON.parse(byForm.generic as string)).toEqual({ mcpServers: { [key]: remote } });
    expect(JSON.parse(byForm.cursor as string)).toEqual({ mcpServers: { [key]: remote } });
    expect(JSON.parse(byForm.vscode as string)).toEqual({ servers: { [key]: { type: "http", ...remote } } });
    const claude = JSON.parse(byForm.claude as string).mcpServers[key];
    expect(claude.command).toBe("npx");
    expect(claude.args).toContain(input.endpoint);
    expect(claude.env.AUTH_HEADER).toBe("Bearer qm_agent_abc123");
  });

  it("lists Tools with curl in one line", () => {
    const line = curlListTools(input.endpoint, input.token);
    expect(line).not.toContain("\n");
    expect(line).toContain('-H "Authorization: Bearer qm_agent_abc123"');
    expect(line).toContain('"method":"tools/list"');
  });

  it("labels each copy button for what it copies: a configuration, or the curl command", () => {
    const labels = Object.fromEntries(clientConfigs(input).map((c) => [c.form, c.copyLabel]));
    expect(labels.curl).toBe("Copy curl command");
    expect(labels.cursor).toBe("Copy Cursor configuration");
  });

  it("takes the placeholder for a token whose secret is gone, in every form", () => {
    for (const c of clientConfigs({ ...input, token: TOKEN_PLACEHOLDER }))
      expect(c.text, c.form).toContain(`Bearer ${TOKEN_PLACEHOLDER}`);
  });
});
