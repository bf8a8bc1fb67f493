/**
 * Every environment variable Quartermaster reads, validated once. Code reads
 * configuration from `env`, never from process.env, so docs/configuration.md and this
 * file are the whole list. next.config.js imports this module, so a bad value fails
 * the build and the start, not a request an hour later.
 */
import { BlockList, isIP } from "node:net";
import { z } from "zod";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  /** PostgreSQL server; unset → the embedded database (PGlite) in QM_DATA_DIR. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://")
    .optional(),
  /** Folder for the embedded database and generated secrets. */
  QM_DATA_DIR: z.string().min(1).default("./.data"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Public URL of the console (sign-in cookies and links); defaults to http://HOST:PORT. */
  QM_BASE_URL: z.url().optional(),
  /** Signs sessions and derives the key that encrypts connection headers. ≥ 32 characters. */
  QM_SECRET: z.string().min(32, "QM_SECRET must be at least 32 characters").optional(),
  QM_BOOTSTRAP_ADMIN_EMAIL: z.email("QM_BOOTSTRAP_ADMIN_EMAIL must be an email address").optional(),
  QM_BOOTSTRAP_ADMIN_PASSWORD: z
    .string()
    .min(12, "QM_BOOTSTRAP_ADMIN_PASSWORD must be at least 12 characters")
    .optional(),
  QM_BOOTSTRAP_API_KEY: z.string().min(32, "QM_BOOTSTRAP_API_KEY must be at least 32 characters").optional(),
  /**
   * Seed demo data (users, Sources, identities) when the database is new. Unset: on the
   * embedded database only, never on a PostgreSQL server (which may hold real data).
   */
  QM_DEMO: flag.optional(),
  /** Loopback port for the demo MCP server; unset: PORT + 1, so the printed URL stays the same across starts. */
  QM_DEMO_MCP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * Proxies whose X-Forwarded-For / X-Forwarded-Proto / X-Forwarded-Host are believed:
   * comma-separated addresses or CIDR ranges. From anyone else those headers are dropped.
   */
  QM_TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const entries = (value ?? "")
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean);
      for (const entry of entries) {
        if (!parseCidr(entry)) {
          ctx.addIssue({
            code: "custom",
            message: `"${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, 127.0.0.1, ::1)`,
          });
          return z.NEVER;
        }
      }
      return entries;
    }),
  /**
   * Hosts a memory may link to without being flagged at write time: comma-separated, each
   * admitting its subdomains (`github.com` admits `docs.github.com`). Unset: only the
   * console's own host, so a link anywhere else flags (decision 0084).
   */
  QM_MEMORY_LINK_HOSTS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((h) => h.trim().toLowerCase().replace(/^\*\./, ""))
        .filter(Boolean),
    ),
  /** Run scheduled catalog checks in this process. */
  QM_SCHEDULER: flag.default(true),
  /** Where the committed migrations are; unset: prisma/migrations in the working folder. */
  QM_MIGRATIONS_DIR: z.string().min(1).optional(),
  /**
   * How long a starting instance waits for another one that is applying migrations to the
   * same database before it gives up (a long data migration may take minutes).
   */
  QM_MIGRATION_WAIT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /**
   * From SIGTERM to exit at most: the time an instance has to leave its load balancer's pool,
   * finish the requests and catalog checks in flight and release its leases.
   */
  QM_SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(3600).default(25),
  /** Build at `npm start` when the sources are newer than the build (off where the build is made once, as in an image). */
  QM_BUILD: flag.default(true),
  /**
   * Memory search's optional vector leg: an OpenAI-compatible embeddings endpoint (its base
   * URL; POST {url}/embeddings), or `local:hash` for the deterministic offline provider.
   */
  QM_EMBEDDINGS_URL: z
    .string()
    .regex(/^(https?:\/\/|local:hash$)/, "QM_EMBEDDINGS_URL must be an http(s) URL or local:hash")
    .optional(),
  QM_EMBEDDINGS_MODEL: z.string().min(1).default("text-embedding-3-small"),
  QM_EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  QM_EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(8).max(4096).default(256),
  /**
   * OpenTelemetry: send traces over OTLP/HTTP to this collector (its base URL; spans go to
   * {url}/v1/traces). Unset: tracing is off and costs nothing.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url("OTEL_EXPORTER_OTLP_ENDPOINT must be a URL, e.g. http://127.0.0.1:4318")
    .optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default("quartermaster"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

/** An address or CIDR range as [address, prefix, family]; null when it is neither. */
export function parseCidr(entry: string): [string, number, "ipv4" | "ipv6"] | null {
  const [address = "", bits, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length) return null;
  const max = family === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : Number.NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return [address, prefix, family === 4 ? "ipv4" : "ipv6"];
}

/** The trusted proxies as a BlockList (node:net), for matching a socket's peer. */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parseCidr(entry);
    if (parsed) list.addSubnet(...parsed);
  }
  return list;
}

type Parsed = z.infer<typeof schema>;
export type Env = Omit<Parsed, "QM_DEMO"> & { QM_DEMO: boolean };

function parse(source: Record<string, string | undefined>): Env {
  const values = Object.fromEntries(
    Object.keys(schema.shape).map((k) => [k, source[k] === "" ? undefined : source[k]]),
  );
  const result = schema.safeParse(values);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  if (result.data.QM_BOOTSTRAP_ADMIN_PASSWORD && !result.data.QM_BOOTSTRAP_ADMIN_EMAIL) {
    throw new Error("Invalid environment:\n  QM_BOOTSTRAP_ADMIN_PASSWORD is set without QM_BOOTSTRAP_ADMIN_EMAIL");
  }
  return { ...result.data, QM_DEMO: result.data.QM_DEMO ?? !result.data.DATABASE_URL };
}

export const env: Env = parse(process.env);

/** For tests and scripts that change the environment after start. */
export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  return parse(source);
}
