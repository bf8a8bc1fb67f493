/**
 * Starts tests/helpers/instance-main.ts: a second app instance, in its own process (its
 * own database pool, caches and call-log buffer, as a second server would have), on the
 * PostgreSQL database the test uses.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

export interface OtherInstance {
  url: string;
  stop(): Promise<void>;
}

/** `limits`: release settings (server/limits.ts LIMITS, by name) this instance runs with instead. */
export async function startOtherInstance(
  databaseUrl: string,
  timeoutMs = 60_000,
  limits: Record<string, number> = {},
): Promise<OtherInstance> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "instance-main.ts")],
    {
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATABASE_URL: databaseUrl,
        QM_SCHEDULER: "0",
        QM_DEMO: "0",
        QM_TEST_LIMITS: JSON.stringify(limits),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let errors = "";
  child.stderr?.on("data", (c: Buffer) => {
    errors += c.toString();
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`second instance not ready:\n${errors}`)), timeoutMs);
      let out = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split("\n").find((l) => l.startsWith("{") && l.endsWith("}"));
        if (line) {
          clearTimeout(timer);
          resolve((JSON.parse(line) as { url: string }).url);
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`second instance exited (${code}):\n${errors}`));
      });
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
