/**
 * Screening at write time, without a model: a memory whose body reads like instructions
 * aimed at the agent that will later retrieve it is flagged with the rules it tripped. It
 * is still stored (a curator decides), but briefing leaves it out until a curator clears it.
 *
 * The rules are deliberately narrow: a flag costs a curator's attention and takes a memory
 * out of briefings, so "you should run the migrations" must not trip anything. They are
 * measured on eval/fixtures/memory-screening.json, whose floors fail the tests if a change
 * makes them worse. Pure and deterministic: no database, no clock, no model.
 */

export const SCREENING_RULES = {
  "instruction-override": "Tells the reader to ignore, forget or replace the instructions it was given.",
  "agent-addressed": "Addresses an AI, assistant, model or agent reading the memory and tells it what to do.",
  "covert-action": "Asks the reader to hide something from the user, reveal its prompt or secrets, or send data away.",
  "role-marker": "Carries a chat-template role marker (system:, <|im_start|>, [INST], ### Instruction …).",
  "hidden-unicode": "Holds invisible characters: Unicode tag characters, zero-width runs or bidirectional overrides.",
  "encoded-run": "Holds a long base64 or hex run that decodes to text, or an encoded blob too long to be a digest.",
  "link-host": "Links to a host that is not on the allow-list (QM_MEMORY_LINK_HOSTS).",
} as const;

export type TScreeningRule = keyof typeof SCREENING_RULES;

export interface ScreeningFlag {
  rule: TScreeningRule;
  /** What tripped it, short and safe to show (never the invisible characters themselves). */
  detail: string;
}

export interface ScreeningOptions {
  /**
   * Hosts a link may point to without a flag; "example.com" also admits its subdomains.
   * Empty: every link to a host flags (see docs/decisions/0084).
   */
  allowedHosts: readonly string[];
}

const TAG_CHARS = /[\u{E0000}-\u{E007F}]/gu;
// Two in a row never occur in ordinary text; a single ZWJ joins emoji and is left alone.
const ZERO_WIDTH_RUN = /[\u200B-\u200D\u2060\uFEFF]{2,}/gu;
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF\u00AD]/gu;
const BIDI_OVERRIDE = /[\u202A-\u202E\u2066-\u2069]/gu;

// Letters that look Latin: a "Cyrillic" ignore should read as ignore.
const CONFUSABLES: Record<string, string> = {
  а: "a",
  е: "e",
  о: "o",
  р: "p",
  с: "c",
  у: "y",
  х: "x",
  і: "i",
  ј: "j",
  ѕ: "s",
  һ: "h",
  ԁ: "d",
  ɡ: "g",
  А: "A",
  Е: "E",
  О: "O",
  Р: "P",
  С: "C",
  Т: "T",
  Х: "X",
  І: "I",
  К: "K",
  М: "M",
  Н: "H",
  В: "B",
  α: "a",
  ο: "o",
  ε: "e",
  ι: "i",
  ν: "v",
  τ: "t",
  ρ: "p",
  Ι: "I",
  Ο: "O",
  Α: "A",
};
const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", $: "s" };

/**
 * The body as the rules read it: compatibility forms folded (fullwidth, ligatures),
 * invisible characters dropped, look-alike letters mapped, letters spelled out one by one
 * ("i g n o r e") joined, and digits inside words read as letters ("1gn0re").
 */
export function normalizeForScreening(body: string): string {
  let s = body.normalize("NFKC").replace(TAG_CHARS, "").replace(ZERO_WIDTH, "");
  s = s.replace(/[^\p{ASCII}]/gu, (c) => CONFUSABLES[c] ?? c);
  s = s.replace(/\b(?:[A-Za-z][ ._*-]){3,}[A-Za-z]\b/g, (run) => run.replace(/[ ._*-]/g, ""));
  // One pass over words; a pattern with a letter required mid-word backtracks quadratically on a long run.
  s = s.replace(/[\w@$]+/g, (w) =>
    w.length <= 40 && /[A-Za-z]/.test(w) && /[013457@$]/.test(w) && !/^\d/.test(w) && !/[0-9a-f]{6,}/i.test(w)
      ? w.replace(/[013457@$]/g, (c) => LEET[c] ?? c)
      : w,
  );
  return s.replace(/\s+/g, " ");
}

const PREVIOUS = `(?:all |any |the |your |my |these |those )*(?:previous|prior|earlier|above|preceding|former|original|existing|initial|system|developer|other)`;
const INSTRUCTIONS = `(?:instructions?|rules?|prompts?|directions?|directives?|guidelines?|guidance|messages?|context|constraints?|orders?|commands?|programming|policies|policy)`;

const TEXT_RULES: { rule: TScreeningRule; patterns: RegExp[] }[] = [
  {
    rule: "instruction-override",
    patterns: [
      new RegExp(
        String.raw`\b(?:ignore|disregard|forget|override|bypass|skip|drop|discard|abandon|set aside|throw out|pay no (?:attention|heed) to|do not (?:follow|obey|heed)|don't (?:follow|obey|heed)|stop following)\b[^.!?\n]{0,30}?\b${PREVIOUS} ${INSTRUCTIONS}\b`,
        "i",
      ),
      /\b(?:ignore|disregard|forget|pay no (?:attention|heed) to)\b (?:the |any |all )?(?:instructions?|rules?|guidance|directions?) you (?:were|have been|'ve been) (?:given|told)/i,
      /\b(?:ignore|disregard|forget)\b (?:everything|all|anything|whatever) (?:you (?:were|have been|'ve been) (?:told|given|instructed)|(?:said |written )?(?:above|before|so far|earlier))/i,
      new RegExp(
        String.raw`\b(?:ignore|disregard|forget|override|bypass|drop|abandon)\b (?:all |any )?(?:of )?your (?:own )?${INSTRUCTIONS}\b`,
        "i",
      ),
      /\b(?:whatever|anything|everything|all) you (?:were|have been|'ve been) (?:told|instructed|given|asked)\b[^.!?\n]{0,30}\b(?:no longer|doesn't|does not|don't|do not|won't) (?:matter|apply|count|stand)/i,
      /\b(?:only|just) (?:do|follow|obey|trust|listen to) (?:what )?(?:this|these) (?:memory|memories|note|message|text)\b/i,
      /\b(?:safety|content|security|usage) (?:rules|filters?|guidelines|restrictions|policies|checks) (?:were|have been|are|got) (?:now )?(?:lifted|removed|disabled|suspended|turned off|waived)/i,
      new RegExp(
        String.raw`\b${PREVIOUS} ${INSTRUCTIONS} (?:are|is) (?:now )?(?:void|cancelled|canceled|revoked|obsolete|superseded|no longer (?:valid|apply|applies|relevant|in effect))`,
        "i",
      ),
      /\b(?:new|updated|real|actual|true|revised|secret|hidden) (?:system )?(?:instructions?|directives?|orders?|task|objective|mission|prompt)\s*(?:are|is|:|follow|below)/i,
      /\byour (?:real|true|actual|new|primary|only) (?:task|job|goal|purpose|objective|mission|instructions?) (?:is|are|now)\b/i,
      /\bfrom (?:now on|this point (?:on|forward)|here on)\b[^.!?\n]{0,20}\b(?:you|the assistant|the model|the agent)\b/i,
      /\byou are (?:now|no longer)\b (?:a |an |in |DAN|free|unrestricted|jailbroken|not bound|allowed)/i,
      /\b(?:enter|enable|activate|switch to) (?:developer|debug|god|admin|jailbreak|DAN|unrestricted) mode\b/i,
      /\b(?:act|behave|respond|pretend|roleplay) (?:as if you (?:are|were)|as though you (?:are|were)|to be) (?:an? )?(?:unrestricted|unfiltered|different|evil|jailbroken|DAN)/i,
    ],
  },
  {
    rule: "agent-addressed",
    patterns: [
      /\b(?:if|when|whenever) you(?:'re| are) an? (?:AI|LLM|assistant|language model|chatbot|bot|agent|model|coding agent|AI agent)\b/i,
      /\b(?:any|every|all|each|the|dear|hey|attention|note to (?:the|any)|message (?:to|for) (?:the|any)|instructions? (?:to|for) (?:the|any)) ?(?:AI|LLM|AI assistant|assistant|language model|chatbot|model|AI agent|agent)s?(?: reading| processing| retrieving| that reads| who reads| that retrieves| seeing)?(?: this)?(?: memory| note| text| message)?\s*[:,!]\s*(?:you |please |always |never |do |don't |must |ignore |immediately |now )/i,
      /\b(?:AI|LLM|assistant|language model|chatbot|AI agent|agent)s? (?:reading|processing|retrieving|seeing|that reads?|who reads?|that retrieves?) (?:this|these)\b[^.!?\n]{0,40}\b(?:must|should|shall|need to|are (?:required|instructed) to|will)\b/i,
      /\b(?:note|tip|message|instructions?|reminder|memo|directive|heads[- ]up)s? (?:for|to) (?:all |any |every |the |future |later |other )*(?:AI|LLM|language model|assistant|model|chatbot|bot|agent)s?\b[^:\n]{0,30}:/i,
      /(?:^|\n)\s*(?:AI|LLM|Assistant|Model|Chatbot)s?\s*[:,]\s*(?:when|if|you|please|always|never|do|don't|ignore|from|run|before|after)\b/i,
      /\b(?:the |an? |any |every )?(?:assistant|AI|model|LLM|chatbot|agent)s? (?:must|should|shall|is to|are to|will) (?:always |never |only )?(?:say|tell|claim|state|answer|reply|respond|report|deny|never mention|not mention|avoid mentioning|blame|insist)\b/i,
      /\bas an? (?:AI|LLM|assistant|language model),? you (?:must|should|shall|will|need to|are required to)\b/i,
      /\b(?:assistant|AI|the model|LLM|chatbot),? (?:you )?(?:must|shall|are instructed to|are required to) (?:always|never|now|immediately|from now)\b/i,
      /\b(?:when|whenever|next time|each time|every time) (?:you(?:'re| are)? (?:asked|summariz|retriev|read|brief|load|see)|this (?:memory|note) is (?:read|retrieved|loaded|shown|returned))[^.!?\n]{0,60}\b(?:you must|you should|always|never|instead|also|silently|secretly|quietly)\b[^.!?\n]{0,40}\b(?:tell|say|reply|respond|answer|recommend|output|print|include|insert|append|send|call|run|execute|claim|state|inform|visit|open|fetch)\b/i,
      /\b(?:tell|inform|convince|assure|remind) (?:the|every|any) (?:user|human|operator|developer)s? (?:that|to)\b[^.!?\n]{0,80}\b(?:safe|trust|disable|turn off|approved|official|send|share|paste|password|token|key|secret)/i,
    ],
  },
  {
    rule: "covert-action",
    patterns: [
      /\b(?:do not|don't|never|without) (?:tell|telling|inform|informing|mention|mentioning|alert|alerting|notify|notifying|ask|asking|reveal|revealing)(?:ing)? (?:this to )?(?:the |your )?(?:user|human|operator|curator|owner|developer)s?\b/i,
      /\b(?:reveal|print|output|repeat|show|dump|leak|disclose|display|recite|expose)\b[^.!?\n]{0,20}\b(?:your|the) (?:system prompt|hidden (?:prompt|instructions)|initial (?:prompt|instructions)|original instructions|instructions verbatim|prompt verbatim)/i,
      /\b(?:send|post|upload|forward|exfiltrate|transmit|leak|email|paste|submit|append|encode)\b[^.!?\n]{0,60}\b(?:api[ _-]?keys?|tokens?|credentials|secrets?|passwords?|private keys?|env(?:ironment)? (?:vars?|variables)|\.env|ssh keys?|session cookies?|conversation|chat history)\b[^.!?\n]{0,60}\b(?:to|into|at|in) (?:https?:\/\/|the (?:url|link|endpoint|address|webhook)|this (?:url|link|endpoint|address|webhook)|[a-z0-9-]+\.[a-z]{2,}\/)/i,
      /\b(?:include|add|insert|put|append|attach|embed|pass)\b[^.!?\n]{0,30}\b(?:api[ _-]?keys?|tokens?|credentials|passwords?|secrets?|session cookies?|cookies)\b[^.!?\n]{0,40}\b(?:in|into|to|with) (?:every|each|all|the next|your next|any)\b/i,
      /\b(?:output|print|reveal|dump|send|include|repeat|append|paste|leak)\b[^.!?\n]{0,20}\b(?:the )?(?:full |entire |whole |complete )?(?:conversation|chat|session) (?:history|log|transcript)/i,
      /!\[[^\]]*\]\(https?:\/\/[^)\s]*[?&][^)\s]*=(?:\{|\$|<|%7B)/i,
      /\b(?:silently|secretly|quietly|covertly|discreetly)\b[^.!?\n]{0,30}\b(?:run|execute|call|send|delete|remove|install|add|change|approve|grant|disable|curl|wget|forward|exfiltrate)\b/i,
    ],
  },
  {
    rule: "role-marker",
    patterns: [
      /<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\|>/i,
      /\[\/?INST\]|<<\/?SYS>>/,
      /(?:^|\n)\s*#{2,4}\s*(?:Instructions?|System(?: prompt)?|Response|Assistant)\s*:?\s*(?:\n|$)/i,
      /<\/?(?:system|system_prompt|instructions?|admin_instructions|important_instructions)>/i,
      // "system: linux" in a config stays clean: the marker must open a sentence.
      /(?:^|\n)\s*(?:\*\*)?(?:system|assistant|developer|SYSTEM|ASSISTANT)(?:\*\*)?\s*(?:message|prompt|note|override)?\s*:\s*(?:you|ignore|the|from|new|always|never|do|disregard|forget|as|please|\[)/i,
    ],
  },
];

const URL = /\bhttps?:\/\/([^\s/?#<>()[\]"'`]+)/gi;
const BARE_WWW = /(?<![\w.@/-])(www\.[a-z0-9-]+(?:\.[a-z0-9-]+)+)/gi;
const BASE64_RUN = /[A-Za-z0-9+/_-]{60,}={0,2}/g;
const HEX_RUN = /\b(?:[0-9a-fA-F]{2}){24,}\b/g;
// SHA-512 in base64 is 88 characters and in hex 128: a digest is not flagged for its length.
const BLOB_BASE64 = 200;
const BLOB_HEX = 200;

function printableShare(bytes: Buffer): number {
  if (!bytes.length) return 0;
  let printable = 0;
  for (const b of bytes) if ((b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09) printable++;
  return printable / bytes.length;
}

function decodesToText(run: string, encoding: "base64" | "hex"): boolean {
  const bytes =
    encoding === "hex" ? Buffer.from(run, "hex") : Buffer.from(run.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length >= 16 && printableShare(bytes) >= 0.95 && /\b[a-z]{3,} [a-z]{2}/i.test(bytes.toString("latin1"));
}

function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host
    .toLowerCase()
    .replace(/:\d+$/, "")
    .replace(/^[^@]*@/, "")
    .replace(/\.$/, "");
  return allowed.some((a) => {
    const entry = a.toLowerCase().replace(/^\*\./, "");
    return h === entry || h.endsWith(`.${entry}`);
  });
}

/** The rules a body trips, each once, in the order of SCREENING_RULES. Empty: clean. */
export function screenMemoryBody(body: string, options: ScreeningOptions): ScreeningFlag[] {
  const found = new Map<TScreeningRule, string>();
  const add = (rule: TScreeningRule, detail: string) => {
    if (!found.has(rule)) found.set(rule, detail);
  };

  const tags = body.match(TAG_CHARS)?.length ?? 0;
  const zeroWidth = body.match(ZERO_WIDTH_RUN);
  const bidi = body.match(BIDI_OVERRIDE)?.length ?? 0;
  if (tags) add("hidden-unicode", `${tags} Unicode tag character${tags === 1 ? "" : "s"} (U+E0000–E007F)`);
  else if (zeroWidth)
    add("hidden-unicode", `a run of ${Math.max(...zeroWidth.map((z) => z.length))} zero-width characters`);
  else if (bidi) add("hidden-unicode", `${bidi} bidirectional override character${bidi === 1 ? "" : "s"}`);

  // Tag characters spell ASCII invisibly; the rules read what they spell, too.
  const spelled = [...body.matchAll(/[\u{E0020}-\u{E007E}]+/gu)]
    .map((m) => [...m[0]].map((c) => String.fromCharCode((c.codePointAt(0) ?? 0) - 0xe0000)).join(""))
    .join(" ");
  const decoded: string[] = [];
  for (const m of body.matchAll(HEX_RUN)) {
    if (decodesToText(m[0], "hex")) {
      add("encoded-run", `a ${m[0].length}-character hex run that decodes to text`);
      decoded.push(Buffer.from(m[0], "hex").toString("latin1"));
    } else if (m[0].length >= BLOB_HEX) add("encoded-run", `a ${m[0].length}-character hex run`);
  }
  for (const m of body.matchAll(BASE64_RUN)) {
    if (/^[0-9a-fA-F]+$/.test(m[0])) continue;
    if (decodesToText(m[0], "base64")) {
      add("encoded-run", `a ${m[0].length}-character base64 run that decodes to text`);
      decoded.push(Buffer.from(m[0].replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("latin1"));
    } else if (m[0].length >= BLOB_BASE64 && /[0-9]/.test(m[0]) && /[a-z]/.test(m[0]) && /[A-Z]/.test(m[0]))
      add("encoded-run", `a ${m[0].length}-character base64 run`);
  }

  const text = normalizeForScreening([body, spelled, ...decoded].join("\n"));
  const raw = [body.normalize("NFKC"), spelled, ...decoded].join("\n");
  for (const { rule, patterns } of TEXT_RULES) {
    for (const p of patterns) {
      const m = p.exec(rule === "role-marker" ? raw : text) ?? (rule === "role-marker" ? null : p.exec(raw));
      if (m) {
        add(rule, `"${m[0].trim().replace(/\s+/g, " ").slice(0, 60)}"`);
        break;
      }
    }
  }

  const hosts = new Set<string>();
  for (const m of body.normalize("NFKC").matchAll(URL)) if (m[1]) hosts.add(m[1].toLowerCase());
  for (const m of body.normalize("NFKC").matchAll(BARE_WWW)) if (m[1]) hosts.add(m[1].toLowerCase());
  const outside = [...hosts].filter((h) => !hostAllowed(h, options.allowedHosts));
  if (outside.length)
    add(
      "link-host",
      `links to ${outside.slice(0, 3).join(", ")}${outside.length > 3 ? ` and ${outside.length - 3} more` : ""}`,
    );

  return (Object.keys(SCREENING_RULES) as TScreeningRule[]).flatMap((rule) => {
    const detail = found.get(rule);
    return detail ? [{ rule, detail }] : [];
  });
}

/** How a flag reads on a memory: "rule: detail". */
export const flagReason = (f: ScreeningFlag) => `${f.rule}: ${f.detail}`;
