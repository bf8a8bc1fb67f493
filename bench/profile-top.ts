/**
 * The top entries of a V8 CPU profile (a .cpuprofile, as `npm run bench:route` writes with
 * BENCH_ROUTE_PROFILE=<folder>): self time by function and by package, as shares of the
 * samples. docs/benchmarks.md quotes these.
 *
 *   node --import tsx bench/profile-top.ts <file.cpuprofile> [rows]
 */
import { readFileSync } from "node:fs";

type Node = {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const [file, rowsArg] = process.argv.slice(2);
if (!file) throw new Error("usage: bench/profile-top.ts <file.cpuprofile> [rows]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const rows = Number(rowsArg ?? 25);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

/** Where a frame's code lives: a package under node_modules, node's own, or the project's folder. */
function home(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith("node:")) return "node:internal";
  const project = url.replace(/^file:\/\//, "").replace(process.cwd(), "");
  return project.split("/").slice(0, 3).join("/");
}

const fns = new Map<string, number>();
const homes = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id);
  if (!n) continue;
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url
    ? `${url
        .replace(/^file:\/\//, "")
        .replace(process.cwd(), "")
        .replace(/.*node_modules\//, "")}:${lineNumber + 1}`
    : "";
  const fn = `${functionName || "(anonymous)"} ${where}`.trim();
  fns.set(fn, (fns.get(fn) ?? 0) + us);
  const h = home(url, functionName);
  homes.set(h, (homes.get(h) ?? 0) + us);
}
// Inclusive time of the project's own functions: where a request's time goes, stage by stage.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const { functionName, url } = byId.get(at)?.callFrame ?? { functionName: "", url: "" };
    if (!url.includes("/server/") || url.includes("node_modules")) continue;
    const fn = `${functionName || "(anonymous)"} ${url.replace(/.*\/server\//, "server/")}`;
    if (!seen.has(fn)) inclusive.set(fn, (inclusive.get(fn) ?? 0) + us);
    seen.add(fn);
  }
}
const share = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
console.log("\nself time by package or folder");
for (const [h, us] of [...homes].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`${share(us)}  ${h}`);
console.log("\nself time by function");
for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`${share(us)}  ${f}`);
console.log("\ntotal time (with callees) of the project's functions");
for (const [f, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`${share(us)}  ${f}`);
