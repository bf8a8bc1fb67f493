/**
 * The demo's memory: what a platform team's agents and people wrote over four months —
 * decisions, facts whose values change, handoffs, notes, briefings and debriefs — plus the
 * clutter a curator meets in real scopes (exact duplicates from retried writes,
 * near-duplicates, outdated facts, "ok"). Generated from a fixed seed, so every demo
 * installation reads the same; times are relative to the day it is seeded.
 */

export type DemoAuthor = "research" | "curator" | "admin";

export interface DemoMemory {
  /** A name for this draft, so later drafts can supersede it and threads can pin it. */
  key: string;
  daysAgo: number;
  /** Minutes into that day (UTC), so one session's memories sit minutes apart. */
  minute: number;
  author: DemoAuthor;
  kind: "note" | "decision" | "fact" | "handoff" | "briefing" | "debrief";
  body: string;
  tags: string[];
  threads?: string[];
  facts?: { subject: string; predicate: string; value: string }[];
  supersedes?: string;
}

export interface DemoThread {
  name: string;
  description: string;
  /** Keys of the members to pin. */
  pin: string[];
  archived?: boolean;
}

/** mulberry32: small, fast and the same everywhere. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}

const SERVICES = [
  "payments-api",
  "checkout-web",
  "search-indexer",
  "notification-service",
  "auth-gateway",
  "billing-worker",
  "data-pipeline",
  "mobile-bff",
] as const;

const PEOPLE = [
  "Priya Raman",
  "Marcus Webb",
  "Lena Fischer",
  "Tomás Ortega",
  "Aiko Tanaka",
  "Sven Lindqvist",
  "Noor Haddad",
  "Jonah Kim",
] as const;

export const DEMO_THREADS: DemoThread[] = [
  {
    name: "INC-2041 duplicate charges",
    description: "The payments incident of late summer: timeline, handoffs, the fix and the follow-ups.",
    pin: ["decision-idempotency", "debrief-inc-2041"],
  },
  {
    name: "Postgres 16 migration",
    description: "Moving every service database from PostgreSQL 13 to 16, one service at a time.",
    pin: ["decision-pg16-order"],
  },
  {
    name: "On-call handbook",
    description: "What the next person on call needs: rotations, runbooks, escalation.",
    pin: ["note-escalation-path", "fact-oncall-3"],
  },
  {
    name: "Release process",
    description: "How we cut, test and ship releases; the release train and its exceptions.",
    pin: ["decision-release-freeze"],
  },
  {
    name: "Checkout latency",
    description: "Work on checkout-web's p95 latency: budgets, measurements, changes that helped.",
    pin: [],
  },
  {
    name: "Onboarding",
    description: "What a new engineer (or agent) reads first.",
    pin: ["briefing-onboarding"],
  },
  {
    name: "Mobile app 3.0 launch",
    description: "Launch coordination for the 3.0 mobile release. Shipped; kept for reference.",
    pin: ["debrief-mobile-launch"],
    archived: true,
  },
];

/** Hand-written decisions: the memories a team returns to most. */
const DECISIONS: Omit<DemoMemory, "minute" | "author">[] = [
  {
    key: "decision-idempotency",
    daysAgo: 96,
    kind: "decision",
    tags: ["payments-api", "reliability", "inc-2041"],
    threads: ["INC-2041 duplicate charges"],
    body: `# Decision: idempotency keys on every payments-api write

Context: the duplicate charges in INC-2041 came from clients retrying \`POST /charges\` after a gateway timeout.

- Every write endpoint requires an \`Idempotency-Key\` header; requests without one get 400.
- Keys are kept for 24 hours in Redis, scoped per merchant.
- A repeated key returns the stored response, byte for byte.

Owner: Priya Raman. Rollout behind the \`strict_idempotency\` flag, merchants first in sandbox.`,
  },
  {
    key: "decision-pg16-order",
    daysAgo: 88,
    kind: "decision",
    tags: ["postgres", "migration", "data"],
    threads: ["Postgres 16 migration"],
    body: `# Decision: Postgres 16 migration order

We migrate the least critical databases first and keep payments last:

1. search-indexer (rebuildable from source data)
2. notification-service
3. data-pipeline
4. auth-gateway
5. billing-worker
6. payments-api (only after two clean weeks on the others)

Each step uses logical replication to a new cluster and a five-minute write freeze for the switch.`,
  },
  {
    key: "decision-release-freeze",
    daysAgo: 80,
    kind: "decision",
    tags: ["release", "process"],
    threads: ["Release process"],
    body: `# Decision: release freeze in the last week of each quarter

No production deploys from the Monday of the last week of a quarter until the first business day of the next, except fixes for Sev-1 and Sev-2 incidents approved by the incident commander.

Why: three of the last four quarter-end incidents were caused by routine deploys during finance's close.`,
  },
  {
    key: "decision-feature-flags",
    daysAgo: 74,
    kind: "decision",
    tags: ["feature-flags", "process"],
    body: `# Decision: feature flags expire after 90 days

Every flag gets an owner and an expiry date when it is created. The flag service opens a ticket for the owner two weeks before expiry; an expired flag fails the build of the service that still reads it.`,
  },
  {
    key: "decision-grpc",
    daysAgo: 70,
    kind: "decision",
    tags: ["architecture", "mobile-bff"],
    body: `# Decision: mobile-bff talks to internal services over gRPC

JSON over HTTP stays at the edge for the apps; between mobile-bff and payments-api, auth-gateway and search-indexer we use gRPC with deadlines on every call.

- Deadlines: 300 ms for reads, 2 s for payment writes.
- Generated clients live in \`platform/protos\`; no hand-written clients.`,
  },
  {
    key: "decision-otel",
    daysAgo: 66,
    kind: "decision",
    tags: ["observability"],
    body: `# Decision: OpenTelemetry for traces, sampling at the gateway

All services export traces with the OpenTelemetry SDK to the collector in each cluster. The api-gateway makes the sampling decision (10% of requests, every error, every request slower than 1 s) and passes it downstream in \`traceparent\`.`,
  },
  {
    key: "decision-secrets",
    daysAgo: 61,
    kind: "decision",
    tags: ["security", "secrets"],
    body: `# Decision: no long-lived cloud credentials in CI

CI jobs get short-lived credentials through OIDC federation; the static deploy keys are revoked. Jobs that cannot use OIDC yet (the legacy billing-worker pipeline) get keys rotated weekly by the secrets job, with an alert if a rotation fails.`,
  },
  {
    key: "decision-queue",
    daysAgo: 57,
    kind: "decision",
    tags: ["notification-service", "architecture"],
    body: `# Decision: notification-service moves from polling to a queue

The 5-second polling of the outbox table caused lock contention on the payments database. notification-service now consumes the \`notifications\` topic; the outbox relay publishes to it. At-least-once delivery: handlers must be idempotent (message id as the key).`,
  },
  {
    key: "decision-canary",
    daysAgo: 52,
    kind: "decision",
    tags: ["release", "deploys"],
    threads: ["Release process"],
    body: `# Decision: canary every deploy of a tier-1 service

payments-api, checkout-web and auth-gateway deploy to 5% of traffic for 15 minutes first. The canary is rolled back automatically if its error rate is twice the baseline or its p95 latency is 30% above it.`,
  },
  {
    key: "decision-search-reindex",
    daysAgo: 45,
    kind: "decision",
    tags: ["search-indexer", "data"],
    body: `# Decision: nightly full reindex replaced by change capture

search-indexer reads the change stream of the catalog database instead of rebuilding the index every night. A full rebuild stays available as a manual job (\`make reindex-full\`), for schema changes only.`,
  },
  {
    key: "decision-checkout-ssr",
    daysAgo: 39,
    kind: "decision",
    tags: ["checkout-web", "performance"],
    threads: ["Checkout latency"],
    body: `# Decision: checkout-web renders the cart on the server

The client-side cart fetch added a round trip on every checkout page. The cart is now rendered by the server component and streamed; the client only hydrates the quantity controls.`,
  },
  {
    key: "decision-runbooks",
    daysAgo: 33,
    kind: "decision",
    tags: ["on-call", "process"],
    threads: ["On-call handbook"],
    body: `# Decision: every alert links to a runbook

An alert without a runbook link is not allowed to page. The runbook says what the alert means, how to confirm it, the first three things to try and who to escalate to.`,
  },
  {
    key: "decision-data-retention",
    daysAgo: 27,
    kind: "decision",
    tags: ["data-pipeline", "privacy"],
    body: `# Decision: raw event retention is 30 days

data-pipeline keeps raw events for 30 days and aggregated tables for 2 years. Customer deletion requests are applied to the aggregates by the weekly erasure job; raw events age out on their own.`,
  },
  {
    key: "decision-mobile-versioning",
    daysAgo: 84,
    kind: "decision",
    tags: ["mobile-bff", "mobile"],
    threads: ["Mobile app 3.0 launch"],
    body: `# Decision: mobile-bff supports the two latest app versions

Versions older than the two latest get an upgrade prompt; mobile-bff answers them with 426 after a 60-day grace period. The 3.0 launch starts the clock for 2.x.`,
  },
  {
    key: "decision-rate-limits",
    daysAgo: 19,
    kind: "decision",
    tags: ["auth-gateway", "security"],
    body: `# Decision: rate limits per API key, not per IP

auth-gateway limits requests per API key (600 per minute by default, raised per contract) and keeps a coarse per-IP limit only for unauthenticated endpoints. Shared NATs at large customers made per-IP limits throttle whole offices.`,
  },
  {
    key: "decision-slo",
    daysAgo: 12,
    kind: "decision",
    tags: ["reliability", "slo"],
    body: `# Decision: availability SLOs for tier-1 services

- payments-api: 99.95% of requests succeed over 28 days
- checkout-web: 99.9%
- auth-gateway: 99.95%

An exhausted error budget freezes feature deploys of that service until it recovers.`,
  },
];

/** Values that change over time: each is a fact memory, newest value last. */
const SERIES: {
  subject: string;
  predicate: string;
  tags: string[];
  thread?: string;
  points: { daysAgo: number; value: string; body: string }[];
}[] = [
  {
    subject: "payments-api on-call",
    predicate: "primary",
    tags: ["on-call", "payments-api"],
    thread: "On-call handbook",
    points: [
      {
        daysAgo: 105,
        value: "Priya Raman",
        body: "payments-api on-call: Priya Raman is primary this rotation, Marcus Webb secondary. Page through the PAY-PRIMARY schedule.",
      },
      {
        daysAgo: 77,
        value: "Marcus Webb",
        body: "On-call rotation changed: Marcus Webb is payments-api primary now; Lena Fischer is secondary. Escalations still go to the payments channel first.",
      },
      {
        daysAgo: 49,
        value: "Lena Fischer",
        body: "Lena Fischer took over as payments-api primary on-call. Secondary: Tomás Ortega. The PAY-PRIMARY schedule is updated.",
      },
      {
        daysAgo: 21,
        value: "Tomás Ortega",
        body: "Rotation: Tomás Ortega is the payments-api primary on-call from today, with Aiko Tanaka as secondary.",
      },
    ],
  },
  {
    subject: "checkout-web",
    predicate: "p95 latency budget",
    tags: ["checkout-web", "performance", "slo"],
    thread: "Checkout latency",
    points: [
      {
        daysAgo: 92,
        value: "450 ms",
        body: "checkout-web p95 latency budget is 450 ms for the checkout page (measured at the edge, excluding payment redirects).",
      },
      {
        daysAgo: 36,
        value: "300 ms",
        body: "New target: checkout-web's p95 latency budget is now 300 ms, after the server-rendered cart shipped. Alerts fire at 330 ms for 10 minutes.",
      },
    ],
  },
  {
    subject: "staging database",
    predicate: "host",
    tags: ["postgres", "staging"],
    thread: "Postgres 16 migration",
    points: [
      {
        daysAgo: 100,
        value: "pg-staging-1.internal",
        body: "The shared staging database lives on pg-staging-1.internal (PostgreSQL 13). Connection details are in the staging vault path.",
      },
      {
        daysAgo: 44,
        value: "pg-staging-2.internal",
        body: "Staging moved to the PostgreSQL 16 cluster: the staging database host is pg-staging-2.internal. The old host stays read-only for a week.",
      },
    ],
  },
  {
    subject: "release train",
    predicate: "cadence",
    tags: ["release", "process"],
    thread: "Release process",
    points: [
      {
        daysAgo: 98,
        value: "weekly on Tuesdays",
        body: "The release train leaves weekly on Tuesdays at 14:00 UTC. Merge to main by Monday evening to be on it.",
      },
      {
        daysAgo: 30,
        value: "twice a week, Tuesdays and Thursdays",
        body: "The release train now runs twice a week, Tuesdays and Thursdays at 14:00 UTC, since canary deploys made releases cheaper.",
      },
    ],
  },
  {
    subject: "CI",
    predicate: "Node.js version",
    tags: ["ci", "tooling"],
    points: [
      {
        daysAgo: 110,
        value: "18",
        body: "CI runs Node.js 18 for every JavaScript service; local development should match it.",
      },
      {
        daysAgo: 68,
        value: "20",
        body: "We upgraded CI to Node.js 20 (LTS). checkout-web and mobile-bff are verified on it.",
      },
      {
        daysAgo: 9,
        value: "22",
        body: "CI images now ship Node.js 22; every JavaScript service builds and passes its tests on it.",
      },
    ],
  },
  {
    subject: "payments-api",
    predicate: "error budget remaining",
    tags: ["payments-api", "slo", "reliability"],
    points: [
      { daysAgo: 90, value: "92%", body: "payments-api has 92% of its 28-day error budget left." },
      {
        daysAgo: 62,
        value: "58%",
        body: "After the INC-2041 fallout, payments-api is down to 58% of its 28-day error budget. Feature work continues, carefully.",
      },
      {
        daysAgo: 6,
        value: "81%",
        body: "payments-api error budget recovered to 81% of the 28-day window after two quiet weeks.",
      },
    ],
  },
  {
    subject: "primary region",
    predicate: "is",
    tags: ["infrastructure", "regions"],
    points: [
      { daysAgo: 115, value: "eu-west-1", body: "Our primary region is eu-west-1; eu-central-1 is the warm standby." },
      {
        daysAgo: 40,
        value: "eu-central-1",
        body: "Region move done: the primary region is eu-central-1 now, and eu-west-1 became the warm standby.",
      },
    ],
  },
  {
    subject: "search-indexer",
    predicate: "batch size",
    tags: ["search-indexer", "performance"],
    points: [
      {
        daysAgo: 72,
        value: "500",
        body: "search-indexer writes to the index in batches of 500 documents; larger batches timed out under load.",
      },
      {
        daysAgo: 24,
        value: "2000",
        body: "With change capture in place, search-indexer batches 2000 documents per write and keeps up with peak traffic.",
      },
    ],
  },
  {
    subject: "checkout_v2 flag",
    predicate: "rollout",
    tags: ["feature-flags", "checkout-web"],
    thread: "Checkout latency",
    points: [
      { daysAgo: 34, value: "5%", body: "The checkout_v2 flag is rolled out to 5% of sessions." },
      {
        daysAgo: 26,
        value: "25%",
        body: "checkout_v2 rollout raised to 25% of sessions; conversion is flat and p95 improved.",
      },
      {
        daysAgo: 14,
        value: "100%",
        body: "checkout_v2 is at 100% of sessions. The old checkout code is scheduled for removal.",
      },
    ],
  },
];

const INCIDENTS = [
  { id: "INC-2041", service: "payments-api", what: "duplicate charges after gateway timeouts" },
  { id: "INC-2057", service: "search-indexer", what: "stale search results for new products" },
  { id: "INC-2063", service: "auth-gateway", what: "token refresh failures for mobile clients" },
  { id: "INC-2070", service: "notification-service", what: "delayed password-reset emails" },
  { id: "INC-2078", service: "checkout-web", what: "blank checkout page in Safari 17" },
  { id: "INC-2085", service: "billing-worker", what: "invoices generated twice at month end" },
  { id: "INC-2091", service: "data-pipeline", what: "missing events in the daily revenue report" },
  { id: "INC-2099", service: "mobile-bff", what: "timeouts on the order history screen" },
];

const CAUSES = [
  "a connection pool capped at 20 connections",
  "a retry loop without jitter",
  "an expired TLS certificate on an internal endpoint",
  "a missing index on the orders table",
  "a cache key that ignored the locale",
  "a cron job scheduled in local time instead of UTC",
  "a config change that was deployed without its migration",
  "a dependency upgrade that changed a default timeout",
];

const NEXT_STEPS = [
  "watch the dashboard for another hour before closing",
  "write the timeline into the postmortem doc",
  "ask the vendor for their side of the logs",
  "confirm with support that affected customers were contacted",
  "add an alert for the symptom we only saw by chance",
  "backfill the affected rows with the repair script",
  "remove the temporary feature flag once traffic is normal",
];

const NOTE_TEMPLATES: ((s: string, p: string, n: number, r: ReturnType<typeof rng>) => string)[] = [
  (s, p, n) =>
    `Flaky test in ${s}: \`${r0(n, ["checkout totals", "webhook retries", "session expiry", "pagination"])}\` fails about once in ${(n % 7) + 3} runs on CI. ${p} suspects a shared fixture; quarantined in PR #${n}.`,
  (s, p, n) =>
    `${s} deploy #${n} went out with ${p}'s fix for the ${r0(n, ["timeout", "serialization", "currency rounding", "retry"])} bug. No errors in the first 30 minutes.`,
  (s, _p, n, r) =>
    `Observed on ${s}: p99 latency spikes to ${r.int(900, 2400)} ms every hour on the hour. Lines up with the ${r0(n, ["cache warm-up", "log rotation", "metrics export", "backup"])} job (PLAT-${n}).`,
  (s, p, n) =>
    `${p} asked that ${s} pull requests touching the database schema get a second reviewer from the data team. Added to CODEOWNERS in PR #${n}.`,
  (s, _p, n, r) =>
    `${s} memory use grows by about ${r.int(40, 180)} MB a day until the pod restarts. Heap profile attached to ticket PLAT-${n}; likely the ${r0(n, ["metrics registry", "request context", "template cache", "gRPC channel"])}.`,
  (s, p, n) =>
    `Runbook for ${s} updated by ${p}: the "${r0(n, ["high error rate", "queue backlog", "disk almost full", "certificate expiry"])}" alert now lists the dashboard and the rollback command (PR #${n}).`,
  (s, _p, n, r) =>
    `Load test of ${s} (build ${n}): ${r.int(800, 4000)} requests per second sustained, p95 ${r.int(60, 280)} ms, CPU at ${r.int(45, 85)}%. No errors.`,
  (s, p, n) =>
    `Dependency audit: ${s} still pins ${r0(n, ["an old Redis client", "a deprecated JWT library", "a vulnerable XML parser", "an unmaintained retry helper"])}. ${p} owns the upgrade (PLAT-${n}).`,
  (s, p, n) =>
    `${p} paired with the ${s} team on ${r0(n, ["tracing", "structured logging", "graceful shutdown", "health checks"])}; they want a shared library instead of copying code between services. Follow-up in PLAT-${n}.`,
  (s, _p, n, r) =>
    `${s} error rate rose to ${(r.int(12, 60) / 10).toFixed(1)}% for ${r.int(4, 25)} minutes after deploy #${n}; rolled back automatically by the canary. Cause still unknown.`,
  (s, p, n) =>
    `Customer question routed from support: why ${s} ${r0(n, ["rejects webhooks without a signature", "returns 429 at night", "shows prices without tax", "logs users out after an hour"])}. ${p} answered in the support thread (ticket SUP-${n}).`,
  (s, p, n) =>
    `${p} found that ${s} logs full request bodies at debug level in staging. Not enabled in production, but we are removing it anyway (PR #${n}).`,
  (s, _p, n, r) =>
    `Cost note: ${s} spends about €${r.int(300, 4200)} a month on ${r0(n, ["log ingestion", "idle replicas", "cross-region traffic", "oversized instances"])}. Worth a look next planning (PLAT-${n}).`,
  (s, p, n) =>
    `Schema change for ${s} planned by ${p}: add a nullable column first, backfill in batches of ${((n % 5) + 1) * 1000}, then make it required in a second release. Tracked in PLAT-${n}.`,
  (s, p, n) =>
    `${s} alert "${r0(n, ["5xx above 2%", "queue age above 5 min", "replica lag above 30 s", "CPU above 90%"])}" paged ${p} ${(n % 4) + 2} times this week; all were real but short. Consider raising the duration to 10 minutes (PLAT-${n}).`,
];

function r0(n: number, options: string[]): string {
  return options[n % options.length] as string;
}

const authorOf = (n: number): DemoAuthor => (n % 5 === 0 ? "curator" : n % 11 === 0 ? "admin" : "research");

/** Every memory of the demo scope, in the order they happened. */
export function platformTeamMemories(): DemoMemory[] {
  const r = rng(20260901);
  const out: DemoMemory[] = [];
  let serial = 4100;

  for (const d of DECISIONS) out.push({ ...d, author: "curator", minute: 9 * 60 + r.int(0, 300) });

  for (const series of SERIES)
    series.points.forEach((point, i) => {
      out.push({
        key: `fact-${series.subject === "payments-api on-call" ? "oncall" : series.subject.replace(/\W+/g, "-")}-${i}`,
        daysAgo: point.daysAgo,
        minute: 8 * 60 + r.int(0, 600),
        author: "research",
        kind: "fact",
        body: point.body,
        tags: series.tags,
        threads: series.thread ? [series.thread] : [],
        facts: [{ subject: series.subject, predicate: series.predicate, value: point.value }],
      });
    });

  // A wrong value, corrected twice: a supersession chain to read on a memory's page.
  out.push(
    {
      key: "fact-grpc-deadline-0",
      daysAgo: 69,
      minute: 600,
      author: "research",
      kind: "fact",
      tags: ["mobile-bff", "grpc"],
      body: "mobile-bff's gRPC deadline for payment writes is 5 s.",
      facts: [{ subject: "mobile-bff payment writes", predicate: "gRPC deadline", value: "5 s" }],
    },
    {
      key: "fact-grpc-deadline-1",
      daysAgo: 69,
      minute: 640,
      author: "research",
      kind: "fact",
      tags: ["mobile-bff", "grpc"],
      supersedes: "fact-grpc-deadline-0",
      body: "Correction: mobile-bff's gRPC deadline for payment writes is 2 s, as the decision says; 5 s was the old HTTP timeout.",
      facts: [{ subject: "mobile-bff payment writes", predicate: "gRPC deadline", value: "2 s" }],
    },
    {
      key: "fact-grpc-deadline-2",
      daysAgo: 18,
      minute: 700,
      author: "curator",
      kind: "fact",
      tags: ["mobile-bff", "grpc"],
      supersedes: "fact-grpc-deadline-1",
      body: "mobile-bff's gRPC deadline for payment writes is 2 s, plus one retry with a fresh idempotency key only when the first attempt never reached payments-api.",
      facts: [{ subject: "mobile-bff payment writes", predicate: "gRPC deadline", value: "2 s" }],
    },
  );

  // Incident sessions: a handoff, notes minutes apart, and a debrief days later.
  INCIDENTS.forEach((inc, i) => {
    const day = 100 - i * 11;
    const start = 13 * 60 + r.int(0, 240);
    const person = PEOPLE[i % PEOPLE.length] as string;
    const next = PEOPLE[(i + 3) % PEOPLE.length] as string;
    const cause = CAUSES[i % CAUSES.length] as string;
    const thread = inc.id === "INC-2041" ? ["INC-2041 duplicate charges"] : [];
    const tags = [inc.service, "incident", inc.id.toLowerCase()];
    out.push(
      {
        key: `note-${inc.id}-open`,
        daysAgo: day,
        minute: start,
        author: "research",
        kind: "note",
        tags,
        threads: thread,
        body: `${inc.id} opened: ${inc.what} on ${inc.service}. ${person} is incident commander. First report came from ${r.pick(["support", "an alert", "a merchant", "the status page checker"])} at ${String(Math.floor(start / 60)).padStart(2, "0")}:${String(start % 60).padStart(2, "0")} UTC.`,
      },
      {
        key: `note-${inc.id}-cause`,
        daysAgo: day,
        minute: start + r.int(20, 50),
        author: "research",
        kind: "note",
        tags,
        threads: thread,
        body: `${inc.id} cause found: ${cause}. ${person} confirmed it in the ${inc.service} logs; a mitigation is rolling out.`,
      },
      {
        key: `handoff-${inc.id}`,
        daysAgo: day,
        minute: start + r.int(60, 100),
        author: "research",
        kind: "handoff",
        tags: [...tags, "handoff"],
        threads: thread,
        body: `## Handoff: ${inc.id} to ${next}

State: mitigated, not resolved. ${inc.service} is stable since the mitigation for ${inc.what}.

Next:
- ${NEXT_STEPS[i % NEXT_STEPS.length]}
- ${NEXT_STEPS[(i + 2) % NEXT_STEPS.length]}

Context is in the incident channel; ${person} is reachable until 20:00 UTC.`,
      },
      {
        key: i === 0 ? "debrief-inc-2041" : `debrief-${inc.id}`,
        daysAgo: day - 3,
        minute: 10 * 60 + r.int(0, 120),
        author: "curator",
        kind: "debrief",
        tags: [...tags, "postmortem"],
        threads: thread,
        body: `# Debrief: ${inc.id} (${inc.what})

**Impact:** ${r.int(3, 90)} minutes of degraded ${inc.service}; ${r.int(12, 900)} customers affected.

**What went well:** the alert fired within ${r.int(1, 6)} minutes and the rollback was clean.

**What went wrong:** ${cause} had been visible in the dashboards for weeks without an alert.

**Follow-ups:** an alert on the symptom; a test that reproduces it; ${NEXT_STEPS[(i + 4) % NEXT_STEPS.length]}.`,
      },
    );
  });

  // Notes: the everyday memory of the team, in sessions of a few minutes.
  for (let i = 0; i < 150; i++) {
    const service = SERVICES[i % SERVICES.length] as string;
    const person = PEOPLE[(i * 3) % PEOPLE.length] as string;
    const template = NOTE_TEMPLATES[(i * 7 + Math.floor(i / SERVICES.length)) % NOTE_TEMPLATES.length];
    serial += r.int(1, 9);
    const day = 118 - Math.floor((i * 117) / 150);
    out.push({
      key: `note-${i}`,
      daysAgo: day,
      minute: 9 * 60 + (i % 4) * 7 + r.int(0, 6) + (i % 3) * 180,
      author: authorOf(i),
      kind: "note",
      tags: [service],
      threads: service === "checkout-web" && i % 3 === 0 ? ["Checkout latency"] : [],
      body: (template as NonNullable<typeof template>)(service, person, serial, r),
    });
  }

  // Handoffs between people at the end of their day.
  for (let i = 0; i < 30; i++) {
    const from = PEOPLE[i % PEOPLE.length] as string;
    const to = PEOPLE[(i + 1) % PEOPLE.length] as string;
    const service = SERVICES[(i * 5) % SERVICES.length] as string;
    serial += r.int(1, 9);
    out.push({
      key: `handoff-${i}`,
      daysAgo: 116 - i * 4,
      minute: 17 * 60 + r.int(0, 90),
      author: i % 4 === 0 ? "curator" : "research",
      kind: "handoff",
      tags: [service, "handoff"],
      threads: i % 5 === 0 ? ["On-call handbook"] : service === "mobile-bff" && i < 12 ? ["Mobile app 3.0 launch"] : [],
      body: `Handoff from ${from} to ${to} (${service}): PR #${serial} is ${r.pick(["waiting for review", "approved but not merged", "blocked on a failing migration test", "deployed to staging"])}. ${r.pick(["Nothing is on fire.", "Keep an eye on the queue backlog alert.", "The canary for the last deploy is still running.", `Support asked for an update on SUP-${serial + 3}.`])} Open question: ${r.pick(["should the retry budget be per merchant?", "do we need a feature flag for this?", "who owns the dashboard after the reorg?", "can the backfill run during business hours?"])}`,
    });
  }

  // Weekly briefings.
  for (let w = 0; w < 16; w++) {
    const day = 112 - w * 7;
    const service = SERVICES[w % SERVICES.length] as string;
    out.push({
      key: w === 15 ? "briefing-latest" : `briefing-${w}`,
      daysAgo: day,
      minute: 8 * 60 + 30,
      author: "research",
      kind: "briefing",
      tags: ["weekly"],
      body: `# Weekly briefing, week ${w + 1} of the quarter

- Deploys: ${r.int(18, 64)} to production, ${r.int(0, 3)} rolled back.
- Incidents: ${r.int(0, 3)} (${r.pick(["none above Sev-3", "one Sev-2", "all resolved within an hour"])}).
- Focus: ${service} — ${r.pick(["latency work", "dependency upgrades", "the Postgres 16 migration", "alert hygiene", "cost reduction"])}.
- People: ${PEOPLE[w % PEOPLE.length]} is out ${r.pick(["Monday", "Thursday and Friday", "all week"])}.`,
    });
  }
  out.push({
    key: "briefing-onboarding",
    daysAgo: 60,
    minute: 9 * 60,
    author: "curator",
    kind: "briefing",
    tags: ["onboarding"],
    threads: ["Onboarding"],
    body: `# Start here: the platform team

We run eight services: ${SERVICES.join(", ")}.

1. Read the decisions tagged \`architecture\` and \`process\` first.
2. Ask for access to the staging vault and the PagerDuty schedules.
3. Shadow one on-call week before you take one.

The **On-call handbook** thread has what you need when paged.`,
  });
  out.push(
    {
      key: "note-escalation-path",
      daysAgo: 58,
      minute: 11 * 60,
      author: "curator",
      kind: "note",
      tags: ["on-call"],
      threads: ["On-call handbook", "Onboarding"],
      body: `Escalation path when paged: primary on-call, then secondary after 15 minutes, then the engineering manager of the service. Sev-1 pages the incident commander rotation at once.`,
    },
    {
      key: "debrief-mobile-launch",
      daysAgo: 82,
      minute: 16 * 60,
      author: "curator",
      kind: "debrief",
      tags: ["mobile", "launch"],
      threads: ["Mobile app 3.0 launch"],
      body: `# Debrief: mobile app 3.0 launch

Shipped on schedule. mobile-bff held peak traffic without scaling events; the order history screen was the slowest view and led to INC-2099 later. Keep the launch checklist for 4.0.`,
    },
  );

  // The clutter the consolidator is for.
  const clutter: DemoMemory[] = [
    // Exact duplicates: a retried write, and a note copied into another session.
    {
      key: "dup-a",
      daysAgo: 47,
      minute: 610,
      author: "research",
      kind: "note",
      tags: ["payments-api"],
      body: "payments-api webhooks are signed with HMAC-SHA256; the signing secret rotates every 90 days.",
    },
    {
      key: "dup-a-copy",
      daysAgo: 47,
      minute: 611,
      author: "research",
      kind: "note",
      tags: ["payments-api"],
      body: "payments-api webhooks are signed with HMAC-SHA256; the signing secret rotates every 90 days.",
    },
    {
      key: "dup-b",
      daysAgo: 29,
      minute: 900,
      author: "research",
      kind: "note",
      tags: ["auth-gateway"],
      body: "auth-gateway access tokens live 15 minutes; refresh tokens live 30 days and are single-use.",
    },
    {
      key: "dup-b-copy",
      daysAgo: 16,
      minute: 700,
      author: "curator",
      kind: "note",
      tags: ["auth-gateway"],
      body: "auth-gateway access tokens live 15 minutes;  refresh tokens live 30 days and are single-use.",
    },
    {
      key: "dup-c",
      daysAgo: 11,
      minute: 800,
      author: "research",
      kind: "note",
      tags: ["release"],
      body: "Release notes are generated from merged PR titles; write PR titles for customers.",
    },
    {
      key: "dup-c-copy",
      daysAgo: 11,
      minute: 802,
      author: "research",
      kind: "note",
      tags: ["release"],
      body: "release notes are generated from merged PR titles; write PR titles for customers.",
    },
    // Near-duplicates: the second says what the first says, and a little more.
    {
      key: "near-a",
      daysAgo: 53,
      minute: 660,
      author: "research",
      kind: "note",
      tags: ["billing-worker"],
      threads: ["Release process"],
      body: "billing-worker runs the invoice job at 02:00 UTC on the first day of each month and retries failed invoices three times.",
    },
    {
      key: "near-a-more",
      daysAgo: 38,
      minute: 720,
      author: "curator",
      kind: "note",
      tags: ["billing-worker", "invoices"],
      body: "billing-worker runs the invoice job at 02:00 UTC on the first day of each month and retries failed invoices three times, then alerts the billing channel.",
    },
    {
      key: "near-b",
      daysAgo: 42,
      minute: 560,
      author: "research",
      kind: "note",
      tags: ["search-indexer"],
      body: "search-indexer skips products without a price, so drafts never appear in search results.",
    },
    {
      key: "near-b-more",
      daysAgo: 22,
      minute: 580,
      author: "research",
      kind: "note",
      tags: ["search-indexer"],
      threads: ["Onboarding"],
      body: "search-indexer skips products without a price, so drafts never appear in search results or in the sitemap.",
    },
    {
      key: "near-c",
      daysAgo: 35,
      minute: 845,
      author: "research",
      kind: "note",
      tags: ["data-pipeline"],
      body: "data-pipeline loads the daily revenue report into the warehouse by 06:00 UTC; finance reads it at 08:00.",
    },
    {
      key: "near-c-more",
      daysAgo: 8,
      minute: 845,
      author: "curator",
      kind: "note",
      tags: ["data-pipeline", "finance"],
      body: "data-pipeline loads the daily revenue report into the warehouse by 06:00 UTC; finance reads it at 08:00 and flags gaps in the data channel.",
    },
    {
      key: "near-d",
      daysAgo: 15,
      minute: 615,
      author: "research",
      kind: "note",
      tags: ["notification-service"],
      body: "notification-service sends password-reset emails through the transactional provider, never through the marketing one.",
    },
    {
      key: "near-d-more",
      daysAgo: 4,
      minute: 615,
      author: "research",
      kind: "note",
      tags: ["notification-service", "email"],
      body: "notification-service sends password-reset emails through the transactional provider, never through the marketing one, with a separate sending domain.",
    },
    // Noise: acknowledgements an agent should not have stored.
    { key: "noise-0", daysAgo: 47, minute: 612, author: "research", kind: "note", tags: [], body: "ok" },
    { key: "noise-1", daysAgo: 33, minute: 1000, author: "research", kind: "note", tags: [], body: "thanks!" },
    { key: "noise-2", daysAgo: 20, minute: 555, author: "research", kind: "note", tags: [], body: "done" },
    { key: "noise-3", daysAgo: 7, minute: 930, author: "research", kind: "note", tags: [], body: "👍" },
    { key: "noise-4", daysAgo: 2, minute: 640, author: "research", kind: "note", tags: [], body: "noted." },
  ];
  out.push(...clutter);

  return out.sort((a, b) => b.daysAgo - a.daysAgo || a.minute - b.minute);
}

/** A second, small scope, so the scope switcher and scope isolation have something to show. */
export function supportDeskMemories(): DemoMemory[] {
  const topics = [
    "Refund requests above €500 need a second approver in the billing tool.",
    "Merchants on the legacy plan cannot use webhooks v2; offer the migration guide instead.",
    "Password resets for SSO customers go through their identity provider, not through us.",
    "Invoices can be re-sent from the customer page; never regenerate them.",
    "Chargeback disputes are answered by the payments team within 5 business days.",
    "The status page is the source of truth during incidents; link it, do not paraphrase it.",
    "Enterprise customers have a named account manager; copy them on escalations.",
    "Data export requests are fulfilled by the data-pipeline team within 30 days.",
    "Customers asking about the API rate limit: 600 requests per minute per key by default.",
    "Mobile app crashes on Android 9 are a known issue; the fix ships in 3.1.",
    "Tax questions go to finance; support never gives tax advice.",
    "A merchant who sees duplicate charges should send the charge ids; we refund within a day.",
  ];
  return topics.map((body, i) => ({
    key: `support-${i}`,
    daysAgo: 60 - i * 5,
    minute: 600 + i * 13,
    author: i % 3 === 0 ? "curator" : "research",
    kind: i % 4 === 0 ? "decision" : "note",
    tags: ["support"],
    threads: i % 2 === 0 ? ["Escalations"] : [],
    body,
  }));
}
