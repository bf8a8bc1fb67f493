/** The eval's fixtures: the utterances and the floors the gate holds them to. */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Floors, Utterance } from "@/server/domain/tool-selection/selection-eval";

const dir = path.resolve(import.meta.dirname, "../fixtures");

/** The gated utterances, or (`holdout`) those written after tuning and never tuned against. */
export function loadUtterances(set: "tuned" | "holdout" = "tuned"): Utterance[] {
  const name = set === "holdout" ? "utterances-holdout.json" : "utterances.json";
  const file = JSON.parse(readFileSync(path.join(dir, name), "utf8")) as {
    utterances: { tool: string; text: string }[];
  };
  return file.utterances.map(({ tool, text }) => ({ tool, text }));
}

export function loadFloors(): Floors {
  return JSON.parse(readFileSync(path.join(dir, "floors.json"), "utf8")) as Floors;
}
