/**
 * LoCoMo (Maharana et al., ACL 2024; CC BY-NC 4.0), read at run time from ../shared/data —
 * never copied into this repository. Each conversation becomes one scope; each turn one
 * memory ("Speaker: text", occurring at its session's date); categories 1–4 are scored.
 */
import { readFileSync } from "node:fs";

export interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
}
export interface LocomoQuestion {
  question: string;
  evidence: string[];
  category: number;
}
export interface LocomoConversation {
  id: string;
  sessions: { at: Date; turns: LocomoTurn[] }[];
  questions: LocomoQuestion[];
}

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

/** "1:56 pm on 8 May, 2023" → that moment (UTC). */
export function sessionDate(text: string): Date {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})/i.exec(text);
  if (!m) throw new Error(`unreadable session date: ${text}`);
  const hour = (Number(m[1]) % 12) + ((m[3] as string).toLowerCase() === "pm" ? 12 : 0);
  return new Date(
    Date.UTC(Number(m[6]), MONTHS.indexOf((m[5] as string).toLowerCase()), Number(m[4]), hour, Number(m[2])),
  );
}

/**
 * A few of LoCoMo's evidence entries hold several turn ids in one string ("D8:6; D9:17",
 * "D9:1 D4:4") or a stray colon ("D:11:26"); read as written they name no turn, and the
 * question could never be found whatever the ranking.
 */
export function evidenceIds(entry: string): string[] {
  return [...entry.matchAll(/D:?(\d+):(\d+)/g)].map((m) => `D${m[1]}:${m[2]}`);
}

/**
 * The development half split by conversation, before any tuning: ranking changes are tuned on
 * the first part only, and the second tells whether a gain holds on conversations never
 * tuned on (the real score is taken on the other half of LoCoMo, which we do not have).
 */
export const TUNING_PART = new Set(["conv-26", "conv-41", "conv-43"]);

export function loadLocomo(file: string): LocomoConversation[] {
  const raw = JSON.parse(readFileSync(file, "utf8")) as {
    sample_id: string;
    conversation: Record<string, unknown>;
    qa: { question: string; evidence: string[]; category: number }[];
  }[];
  return raw.map((sample) => {
    const c = sample.conversation;
    const numbers = Object.keys(c)
      .map((k) => /^session_(\d+)$/.exec(k)?.[1])
      .filter((n): n is string => !!n)
      .map(Number)
      .sort((a, b) => a - b);
    return {
      id: sample.sample_id,
      sessions: numbers.map((n) => ({
        at: sessionDate(c[`session_${n}_date_time`] as string),
        turns: c[`session_${n}`] as LocomoTurn[],
      })),
      questions: sample.qa
        .filter((q) => q.category >= 1 && q.category <= 4)
        .map((q) => ({ question: q.question, evidence: q.evidence.flatMap(evidenceIds), category: q.category })),
    };
  });
}

/** Our own labelled fixture (eval/fixtures/memory-retrieval.json), in the same shape. */
export function loadFixture(file: string): LocomoConversation[] {
  const raw = JSON.parse(readFileSync(file, "utf8")) as {
    conversations: {
      id: string;
      sessions: { at: string; turns: { id: string; speaker: string; text: string }[] }[];
      questions: LocomoQuestion[];
    }[];
  };
  return raw.conversations.map((c) => ({
    id: c.id,
    sessions: c.sessions.map((s) => ({
      at: new Date(s.at),
      turns: s.turns.map((t) => ({ speaker: t.speaker, dia_id: t.id, text: t.text })),
    })),
    questions: c.questions,
  }));
}
