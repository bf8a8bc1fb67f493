import { describe, expect, it } from "vitest";
import { readEnv } from "./env";

describe("environment", () => {
  it("defaults to the embedded database on loopback port 3000 with demo data", () => {
    const env = readEnv({});
    expect(env).toMatchObject({
      DATABASE_URL: undefined,
      HOST: "127.0.0.1",
      PORT: 3000,
      QM_DATA_DIR: "./.data",
      QM_DEMO: true,
    });
  });

  it("refuses bad values, naming the variable and the rule", () => {
    expect(() => readEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL must start with postgres:\/\//);
    expect(() => readEnv({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => readEnv({ QM_SECRET: "short" })).toThrow(/QM_SECRET must be at least 32 characters/);
    expect(() => readEnv({ QM_BOOTSTRAP_ADMIN_PASSWORD: "long-enough-password" })).toThrow(
      /without QM_BOOTSTRAP_ADMIN_EMAIL/,
    );
    expect(() => readEnv({ QM_DEMO: "maybe" })).toThrow(/QM_DEMO/);
  });

  it("treats an empty variable as unset", () => {
    expect(readEnv({ DATABASE_URL: "", PORT: "" })).toMatchObject({ DATABASE_URL: undefined, PORT: 3000 });
  });
});
