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

  it("seeds the demo on the embedded database only, unless asked to on PostgreSQL", () => {
    expect(readEnv({ DATABASE_URL: "postgres://db/qm" }).QM_DEMO).toBe(false);
    expect(readEnv({ DATABASE_URL: "postgres://db/qm", QM_DEMO: "1" }).QM_DEMO).toBe(true);
    expect(readEnv({ QM_DEMO: "0" }).QM_DEMO).toBe(false);
  });

  it("reads QM_TRUSTED_PROXIES as addresses and CIDR ranges, naming a bad entry", () => {
    expect(readEnv({}).QM_TRUSTED_PROXIES).toEqual([]);
    expect(readEnv({ QM_TRUSTED_PROXIES: "10.0.0.0/8, 127.0.0.1,::1, fd00::/8" }).QM_TRUSTED_PROXIES).toEqual([
      "10.0.0.0/8",
      "127.0.0.1",
      "::1",
      "fd00::/8",
    ]);
    expect(() => readEnv({ QM_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/QM_TRUSTED_PROXIES: "10.0.0.0\/33" is not/);
    expect(() => readEnv({ QM_TRUSTED_PROXIES: "proxy.internal" })).toThrow(/QM_TRUSTED_PROXIES/);
  });

  it("treats an empty variable as unset", () => {
    expect(readEnv({ DATABASE_URL: "", PORT: "" })).toMatchObject({ DATABASE_URL: undefined, PORT: 3000 });
  });
});
