/**
 * How refused arguments are worded for the model, written once. Quartermaster refuses
 * arguments that break a Tool's published JSON Schema before a call reaches its host; an
 * SDK Tool Host refuses, with its zod schema, what that JSON Schema cannot express (a
 * refinement). Both answer INVALID_ARGUMENTS with "<field>: <rule>" in the same words, so
 * an agent reads one format whichever side refused.
 */

/**
 * Codes a host's failed result may carry (beside its message): a refusal Quartermaster records
 * as the call's code. Besides refused arguments, only the host's own result failing the
 * result rules, which the SDK checks before sending (the same rules Quartermaster applies):
 * a code that blames the host itself, never one that poses as Quartermaster's (decision 0082).
 */
export const HOST_RESULT_CODES = [
  "INVALID_ARGUMENTS",
  "TOOL_RESULT_MALFORMED",
  "TOOL_RESULT_TEXT_TOO_LONG",
  "TOOL_RESULT_NUL",
  "TOOL_RESULT_TOO_LARGE",
] as const;
export type HostResultCode = (typeof HOST_RESULT_CODES)[number];

/** What the model does about refused arguments; follows the problems in an INVALID_ARGUMENTS message. */
export const FIX_TOOL_ARGUMENTS =
  "Correct the arguments and call again; tools/list (or find_tools) carries the Tool's input schema.";

/** At most this many problems are named: the model fixes the first ones and calls again. */
export const ARGUMENT_PROBLEMS_NAMED = 5;

// JSON Schema format names: the words a model can act on, not the validator's regex.
const FORMAT_RULES: Record<string, string> = {
  date: "must be a YYYY-MM-DD date",
  "date-time": "must be a date and time in ISO 8601 form, e.g. 2026-05-04T09:30:00Z",
  time: "must be a time of day in ISO 8601 form, e.g. 09:30:00",
  duration: "must be an ISO 8601 duration, e.g. P3D",
  email: "must be an email address",
  uri: "must be an absolute URI, e.g. https://example.com/",
  uuid: "must be a UUID",
  ipv4: "must be an IPv4 address",
  ipv6: "must be an IPv6 address",
};

/** The rule a string in JSON Schema `format` breaks, in words. */
export function formatRule(format: string): string {
  return FORMAT_RULES[format] ?? `must match format "${format}"`;
}

// zod's format names where JSON Schema's differ (z.toJSONSchema publishes the latter).
const ZOD_FORMATS: Record<string, string> = { datetime: "date-time", url: "uri" };
// zod's type names where JSON Schema's differ.
const ZOD_TYPES: Record<string, string> = { int: "integer", nan: "number", bigint: "integer" };

/** The part of a zod issue this wording reads (zod 4's $ZodIssue, without importing zod here). */
export interface ZodIssueLike {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  expected?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
  format?: string;
  pattern?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  exact?: boolean;
  divisor?: number | bigint;
}

function sizeRule(issue: ZodIssueLike, small: boolean): string {
  const bound = small ? issue.minimum : issue.maximum;
  const unit =
    issue.origin === "string" ? "characters" : issue.origin === "array" || issue.origin === "set" ? "items" : "";
  if (unit)
    return issue.exact
      ? `must have exactly ${bound} ${unit}`
      : `must NOT have ${small ? "fewer" : "more"} than ${bound} ${unit}`;
  if (issue.origin === "object") return `must NOT have ${small ? "fewer" : "more"} than ${bound} properties`;
  const op = small ? (issue.inclusive === false ? ">" : ">=") : issue.inclusive === false ? "<" : "<=";
  return `must be ${op} ${bound}`;
}

/** One zod issue as "<field>: <rule>", in the words Quartermaster uses for a JSON Schema refusal. */
function describeZodIssue(issue: ZodIssueLike): string[] {
  const at = issue.path.map(String).join(".");
  const field = at || "arguments";
  switch (issue.code) {
    case "invalid_type":
      // zod says "received undefined" for a missing property; JSON Schema calls it required.
      if (/received undefined$/.test(issue.message) && at) return [`${at} is required`];
      return [`${field}: must be ${ZOD_TYPES[issue.expected ?? ""] ?? issue.expected}`];
    case "invalid_value":
      return [
        issue.values?.length === 1
          ? `${field}: must be ${JSON.stringify(issue.values[0])}`
          : `${field}: must be one of ${JSON.stringify(issue.values ?? [])}`,
      ];
    case "unrecognized_keys":
      return (issue.keys ?? []).map((key) => `${at ? `${at}.` : ""}${key}: is not an argument of this Tool`);
    case "invalid_format":
      return [
        issue.format === "regex"
          ? `${field}: must match pattern "${String(issue.pattern ?? "").replace(/^\/|\/[a-z]*$/g, "")}"`
          : `${field}: ${formatRule(ZOD_FORMATS[issue.format ?? ""] ?? issue.format ?? "")}`,
      ];
    case "too_small":
      return [`${field}: ${sizeRule(issue, true)}`];
    case "too_big":
      return [`${field}: ${sizeRule(issue, false)}`];
    case "not_multiple_of":
      return [`${field}: must be multiple of ${issue.divisor}`];
    default:
      // A refinement's own message ("must not be in the future") is the rule.
      return [`${field}: ${issue.message}`];
  }
}

/** The first problems zod found, each "<field>: <rule>", joined as Quartermaster joins its own. */
export function describeZodIssues(issues: readonly ZodIssueLike[]): string {
  return [...new Set(issues.flatMap(describeZodIssue))].slice(0, ARGUMENT_PROBLEMS_NAMED).join("; ");
}

/** The INVALID_ARGUMENTS message for problems already worded: what broke, then what to do. */
export function invalidArgumentsMessage(problems: string): string {
  return `${problems}. ${FIX_TOOL_ARGUMENTS}`;
}
