/** The tool-search eval's data: the BFCL files as the data README describes them, or our own fixture. */
import { readFileSync } from "node:fs";
import type { SearchQuestion, SearchTool } from "./evaluate";

export interface ToolSearchSet {
  tools: SearchTool[];
  questions: SearchQuestion[];
}

export function loadBfcl(toolsFile: string, questionsFile: string): ToolSearchSet {
  const tools = JSON.parse(readFileSync(toolsFile, "utf8")) as { tools: SearchTool[] };
  const questions = JSON.parse(readFileSync(questionsFile, "utf8")) as { questions: SearchQuestion[] };
  return {
    tools: tools.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    questions: questions.questions.map(({ id, question, gold }) => ({ id, question, gold })),
  };
}

/** eval/fixtures/tool-search.json: `{ about, tools, questions }`, questions' gold as in BFCL's. */
export function loadToolSearchFixture(file: string): ToolSearchSet {
  const set = JSON.parse(readFileSync(file, "utf8")) as ToolSearchSet;
  return { tools: set.tools, questions: set.questions };
}
