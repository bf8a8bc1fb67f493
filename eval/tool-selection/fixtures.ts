/** The eval's fixtures: the utterances and the floors the gate holds them to. */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Floors, Utterance } from "@/server/domain/tool-selection/selection-eval";

const dir = path.resolve(import.meta.dirname, "../fixtures");

const FILES = {
  tuned: "utterances.json",
  holdout: "utterances-holdout.json",
  "untuned-2": "utterances-untuned-2.json",
} as const;

/**
 * The gated utterances, or sets never tuned against: `holdout`, written after the first
 * tuning, and `untuned-2`, written before the second (issue 23).
 */
export function loadUtterances(set: keyof typeof FILES = "tuned"): Utterance[] {
  const name = FILES[set];
  const file = JSON.parse(readFileSync(path.join(dir, name), "utf8")) as {
    utterances: { tool: string; text: string }[];
  };
  return file.utterances.map(({ tool, text }) => ({ tool, text }));
}

export function loadFloors(): Floors {
  return JSON.parse(readFileSync(path.join(dir, "floors.json"), "utf8")) as Floors;
}
