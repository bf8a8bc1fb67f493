/**
 * How a search query is read before it reaches the index: dates it mentions become a time
 * signal (not words to match), the words that only shape a question ("what kind of…",
 * "describe…") are dropped, and the rest become lexemes of which any may match — requiring
 * every word collapses recall on question-style queries.
 */
import { expandForSearch } from "./lexicon";

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const MONTH =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const ORD = "(?:st|nd|rd|th)?";
// ISO dates, "13 October 2023", "October 13, 2023", "October 2023", "in 2023".
const DATE_PATTERNS: { re: RegExp; read(m: RegExpExecArray): TimeRange | null }[] = [
  {
    re: /\b(\d{4})-(\d{2})(?:-(\d{2}))?\b/gi,
    read: (m) => range(Number(m[1]), Number(m[2]) - 1, m[3] ? Number(m[3]) : undefined),
  },
  {
    re: new RegExp(`\\b(\\d{1,2})${ORD}\\s+(?:of\\s+)?${MONTH}\\.?,?\\s+(\\d{4})\\b`, "gi"),
    read: (m) => range(Number(m[3]), monthIndex(m[2]), Number(m[1])),
  },
  {
    re: new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})${ORD},?\\s+(\\d{4})\\b`, "gi"),
    read: (m) => range(Number(m[3]), monthIndex(m[1]), Number(m[2])),
  },
  {
    re: new RegExp(`\\b${MONTH}\\.?,?\\s+(?:of\\s+)?(\\d{4})\\b`, "gi"),
    read: (m) => range(Number(m[2]), monthIndex(m[1])),
  },
  { re: /\b(?:in|during|of|since|before|after|by)\s+((?:19|20)\d{2})\b/gi, read: (m) => range(Number(m[1])) },
];

export interface TimeRange {
  from: Date;
  to: Date;
}

function monthIndex(name: string | undefined): number {
  const prefix = (name ?? "").toLowerCase().slice(0, 3);
  return MONTHS.findIndex((m) => m.startsWith(prefix));
}

function range(year: number, month?: number, day?: number): TimeRange | null {
  if (!Number.isFinite(year) || year < 1900 || year > 2200) return null;
  if (month === undefined) return { from: new Date(Date.UTC(year, 0, 1)), to: new Date(Date.UTC(year + 1, 0, 1)) };
  if (month < 0 || month > 11) return null;
  if (day === undefined)
    return { from: new Date(Date.UTC(year, month, 1)), to: new Date(Date.UTC(year, month + 1, 1)) };
  if (day < 1 || day > 31) return null;
  return { from: new Date(Date.UTC(year, month, day)), to: new Date(Date.UTC(year, month, day + 1)) };
}

/** The first date the query mentions (as a range), and the query without its dates. */
export function readDates(query: string): { time: TimeRange | null; text: string } {
  let time: TimeRange | null = null;
  let text = query;
  for (const { re, read } of DATE_PATTERNS) {
    text = text.replace(re, (...groups) => {
      const match = groups.slice(0, -2) as unknown as RegExpExecArray;
      const found = read(match);
      if (!found) return match[0];
      time ??= found;
      return " ";
    });
  }
  return { time, text };
}

/**
 * Stems (as PostgreSQL's english configuration writes them) of words that shape a question
 * rather than say what it is about.
 */
export const QUESTION_STEMS = new Set([
  "kind",
  "type",
  "sort",
  "think",
  "feel",
  "describ",
  "mention",
  "recent",
  "like",
  "would",
  "might",
  "could",
  "someth",
  "anyth",
  "thing",
  "way",
  "go",
  "get",
  "make",
  "mani",
  "much",
  "time",
  "one",
  "also",
  "ever",
  "doe",
  "use",
]);

/** The text full-text search parses: the query without its dates, with lexicon forms. */
export function searchText(query: string): { text: string; time: TimeRange | null } {
  const { time, text } = readDates(query);
  return { text: expandForSearch(text), time };
}

/** A lexeme as a tsquery literal (quotes and backslashes doubled, as tsquery input wants). */
export function tsqueryLiteral(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}
