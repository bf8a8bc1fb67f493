import { describe, expect, it } from "vitest";
import { LIMITS } from "../../limits";
import { mintTaskHandle, openTaskHandle } from "./task-handles";

const target = { kind: "source", sourceId: "src-1", taskId: "task-9", toolName: "report" } as const;

describe("task handles", () => {
  it("open to what they name, for the identity they were minted for only", () => {
    const handle = mintTaskHandle("id-a", target);
    expect(openTaskHandle("id-a", handle)).toEqual(target);
    // Sealed: the Source's own task id is not readable in it.
    expect(handle).not.toContain("task-9");
    expect(() => openTaskHandle("id-b", handle)).toThrow(/TASK_HANDLE_INVALID|not issued to this Agent Identity/);
  });

  it("refuse an altered, truncated or made-up id, and one past its lifetime", () => {
    const handle = mintTaskHandle("id-a", { kind: "approval", approvalId: "ap-1", toolName: "wire" });
    const flipped = `${handle.slice(0, 12)}${handle[12] === "A" ? "B" : "A"}${handle.slice(13)}`;
    for (const bad of [flipped, handle.slice(0, 30), "qmt1.", "task-9", 42, `${handle}${"A".repeat(5000)}`])
      expect(() => openTaskHandle("id-a", bad)).toThrow(expect.objectContaining({ code: "TASK_HANDLE_INVALID" }));
    const ttl = LIMITS.TASK_HANDLE_TTL_SECONDS.value;
    const old = mintTaskHandle("id-a", target, Date.now() - (ttl + 5) * 1000);
    expect(() => openTaskHandle("id-a", old)).toThrow(/expired/);
    const recent = mintTaskHandle("id-a", target, Date.now() - (ttl - 60) * 1000);
    expect(openTaskHandle("id-a", recent)).toEqual(target);
  });
});
