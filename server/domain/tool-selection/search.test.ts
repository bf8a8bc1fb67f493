import { describe, expect, it } from "vitest";
import { impliedTerms } from "./query-hints";
import { terms } from "./text";
import { ToolIndex } from "./tool-index";
import type { ToolText } from "./tool-text";

const names = (index: ToolIndex, query: string) => index.search(query).map((r) => index.tools[r.index]?.name);

describe("find_tools' search", () => {
  it("splits snake_case, camelCase, kebab-case and dotted names into parts a request can meet", () => {
    const index = new ToolIndex([
      { name: "weather.forecast", description: "Days ahead." },
      { name: "createJiraIssue", description: "Open one." },
      { name: "post-slack-message", description: "Say it." },
    ]);
    expect(names(index, "forecast for Oslo")[0]).toBe("weather.forecast");
    expect(names(index, "a new jira issue")[0]).toBe("createJiraIssue");
    expect(names(index, "send a slack message")[0]).toBe("post-slack-message");
  });

  it("meets word forms the stemmer keeps apart (discovered, discoverer, discovery)", () => {
    expect(terms("discovered")).not.toEqual(terms("discoverer"));
    const index = new ToolIndex([
      { name: "get_discoverer", description: "Scientific findings and their origin." },
      { name: "get_population", description: "How many people live in a country." },
    ]);
    expect(names(index, "Who discovered the neutron?")).toEqual(["get_discoverer"]);
  });

  it("reads what a question, a currency or a unit implies", () => {
    expect(impliedTerms("When did it happen?")).toEqual(expect.arrayContaining(terms("date time")));
    expect(impliedTerms("20000 Japanese Yen in USD")).toEqual(expect.arrayContaining(terms("currency")));
    expect(impliedTerms("How many ounces in 2 pounds")).toEqual(expect.arrayContaining(terms("unit")));
    for (const dated of [
      "rain in Oslo on 2023-03-10?",
      "rain in Oslo on the 2nd of March",
      "rain in Oslo next Tuesday",
    ])
      expect(impliedTerms(dated), dated).toEqual(terms("date"));
    expect(impliedTerms("a table for two at 7 pm")).toEqual(terms("time"));
    // "may" is a month only beside a day.
    expect(impliedTerms("May I book a table?")).toEqual([]);
    const index = new ToolIndex([
      { name: "convert_currency", description: "Convert an amount from one currency to another." },
      { name: "convert_length", description: "Convert an amount between units of length." },
    ]);
    expect(names(index, "How much is 20000 yen in USD?")[0]).toBe("convert_currency");
    expect(names(index, "Convert 3 miles to km")[0]).toBe("convert_length");
  });

  it("ranks by parameter names and descriptions, and by the Source's name", () => {
    const tools: ToolText[] = [
      { name: "open_issue", description: "Open an issue.", sourceName: "GitHub" },
      { name: "open_issue_2", description: "Open an issue.", sourceName: "GitLab" },
      {
        name: "lookup",
        description: "Look something up.",
        inputSchema: { type: "object", properties: { isbn: { type: "string", description: "A book's ISBN" } } },
      },
    ];
    const index = new ToolIndex(tools);
    expect(names(index, "open an issue on GitLab")[0]).toBe("open_issue_2");
    expect(names(index, "find the book with this ISBN")[0]).toBe("lookup");
    // Similarity between Tools ignores the Source: the two copies stay identical.
    expect(index.similarity(0, 1)).toBeGreaterThan(0.85);
  });

  it("takes a long request and matches nothing for words no Tool uses", () => {
    const index = new ToolIndex([{ name: "send_email", description: "Send an email." }]);
    expect(names(index, `${"please ".repeat(300)}send an email`)).toEqual(["send_email"]);
    expect(index.search("translate a poem")).toEqual([]);
  });

  it("moves near-copies of a better match below a different Tool, so one thing does not fill the answer", () => {
    const play = (name: string, where: string) => ({
      name,
      description: `Play a song by an artist on ${where}.`,
      inputSchema: { type: "object", properties: { artist: { type: "string" }, song: { type: "string" } } },
    });
    const index = new ToolIndex([
      play("play_song", "a speaker"),
      play("play_song_2", "a device"),
      play("play_song_3", "a player"),
      { name: "lookup_songs", description: "Look up the songs of an artist, a genre or a year." },
    ]);
    expect(names(index, "songs by an artist")).toEqual(["play_song", "lookup_songs", "play_song_2", "play_song_3"]);
    // Asking for fewer gives the first of the same order.
    expect(index.search("songs by an artist", 2).map((r) => index.tools[r.index]?.name)).toEqual([
      "play_song",
      "lookup_songs",
    ]);
  });
});
