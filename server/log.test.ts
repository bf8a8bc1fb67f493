import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./log";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger(stream as never).child({}), lines };
}

describe("logs", () => {
  it("never contain credentials, however deeply they are nested", () => {
    const { logger, lines } = capture();
    logger.level = "info";
    logger.info(
      {
        authorization: "Bearer qm_key_SECRET1",
        request: { headers: { authorization: "Bearer SECRET2" }, cookie: "session=SECRET3" },
        source: { name: "crm", token: "SECRET4", password: "SECRET5" },
      },
      "request",
    );
    const out = lines.join("");
    expect(out).toContain('"name":"crm"');
    for (const secret of ["SECRET1", "SECRET2", "SECRET3", "SECRET4", "SECRET5"]) expect(out).not.toContain(secret);
  });
});
