/**
 * Structured JSON logs. Secrets never reach them: the redaction list covers every
 * field name under which a credential could travel, wherever it is nested.
 */
import pino from "pino";
import { env } from "@/env";

const SECRET_FIELDS = [
  "authorization",
  "cookie",
  "set-cookie",
  "password",
  "token",
  "secret",
  "key",
  "apiKey",
  "hostToken",
  "headers",
  "encryptedHeaders",
];

const KEY = Symbol.for("quartermaster.log");
type Holder = { [KEY]?: pino.Logger };

export function createLogger(destination?: pino.DestinationStream): pino.Logger {
  return pino(
    {
      level: env.NODE_ENV === "test" ? (process.env.LOG_LEVEL ?? "silent") : env.LOG_LEVEL,
      base: { service: "quartermaster" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
        censor: "[redacted]",
      },
    },
    destination,
  );
}

const holder = globalThis as Holder;
holder[KEY] ??= createLogger();
export const log: pino.Logger = holder[KEY];
export type Logger = pino.Logger;
