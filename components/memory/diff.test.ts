import { describe, expect, it } from "vitest";
import { highlightWords } from "./diff";

describe("highlightWords", () => {
  it("marks every occurrence of the listed words, whatever their case, and nothing inside other words", () => {
    expect(highlightWords("Retries three times, then alerts. Then stops.", ["then", "alerts"])).toEqual([
      { text: "Retries three times, ", changed: false },
      { text: "then", changed: true },
      { text: " ", changed: false },
      { text: "alerts", changed: true },
      { text: ". ", changed: false },
      { text: "Then", changed: true },
      { text: " stops.", changed: false },
    ]);
    expect(highlightWords("authentic", ["then"])).toEqual([{ text: "authentic", changed: false }]);
  });

  it("keeps the body whole, so the text reads the same with or without highlights", () => {
    const body = "payments-api’s webhooks don't retry 3×; café — ok";
    const segments = highlightWords(body, ["don't", "café", "3", "webhooks"]);
    expect(segments.map((s) => s.text).join("")).toBe(body);
    expect(segments.filter((s) => s.changed).map((s) => s.text)).toEqual(["webhooks", "don't", "3", "café"]);
  });
});
