/**
 * What a request implies beyond its own words, for find_tools only: a question word says
 * what kind of answer is wanted ("when" → a date), a currency or a unit says what is being
 * converted, a written date or time of day ("2023-03-10", "next Tuesday", "7 pm") says the
 * Tool takes one. Added to the request's terms at a lower weight, never to a Tool's, so they
 * lift Tools that speak of dates, currencies or units without changing what two Tools share.
 */
import { terms, words } from "./text";

const HINTS: readonly [readonly string[], string][] = [
  // Question words (stop words to the scorer, but they say what the answer is).
  [["when"], "date time year"],
  [["where"], "location place address"],
  [["who", "whom", "whose"], "person name"],
  [["how much", "cost", "price"], "price cost amount"],
  [["how many"], "count number"],
  // Money: a currency named by code, name or symbol.
  [
    [
      "usd",
      "eur",
      "euro",
      "euros",
      "dollar",
      "dollars",
      "yen",
      "jpy",
      "gbp",
      "sterling",
      "rupee",
      "rupees",
      "inr",
      "yuan",
      "cny",
      "franc",
      "chf",
      "cad",
      "aud",
      "$",
      "€",
      "£",
      "¥",
    ],
    "currency exchange money",
  ],
  // Units of measure.
  [
    [
      "kg",
      "kilogram",
      "kilograms",
      "lb",
      "lbs",
      "pound",
      "pounds",
      "ounce",
      "ounces",
      "oz",
      "gram",
      "grams",
      "cm",
      "centimeter",
      "centimetre",
      "meter",
      "meters",
      "metre",
      "metres",
      "km",
      "kilometer",
      "kilometers",
      "mile",
      "miles",
      "inch",
      "inches",
      "feet",
      "foot",
      "yard",
      "yards",
      "celsius",
      "fahrenheit",
      "kelvin",
      "liter",
      "liters",
      "litre",
      "litres",
      "gallon",
      "gallons",
      "cup",
      "cups",
      "teaspoon",
      "tablespoon",
      "mph",
      "kph",
    ],
    "unit measure",
  ],
];

const SINGLE = new Map<string, string>();
const PHRASES: [string, string][] = [];
for (const [keys, implied] of HINTS)
  for (const key of keys) {
    if (key.includes(" ")) PHRASES.push([key, implied]);
    else SINGLE.set(key, implied);
  }

const MONTHS =
  "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec";
const DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|yesterday|weekend";
/** A calendar date written out: 2023-03-10, 10/3/2023, 2023.10.1, "March 1st", "next Tuesday". */
const DATE = new RegExp(
  `\\b(\\d{4}[-./]\\d{1,2}[-./]\\d{1,2}|\\d{1,2}[-./]\\d{1,2}[-./]\\d{2,4}|(${MONTHS})\\.? \\d{1,2}(st|nd|rd|th)?|\\d{1,2}(st|nd|rd|th)? (of )?(${MONTHS})|${DAYS})\\b`,
);
/** A time of day: 19:30, 7 pm, 5:30pm. */
const TIME = /\b(\d{1,2}:\d{2}|\d{1,2} ?(am|pm))\b/;

const RAW = /[\p{L}\p{N}$€£¥]+|[$€£¥]/gu;

/** The terms a request implies, each once. */
export function impliedTerms(text: string): string[] {
  const lower = text.toLowerCase();
  const implied = new Set<string>();
  for (const [phrase, hint] of PHRASES) if (lower.includes(phrase)) for (const t of terms(hint)) implied.add(t);
  for (const match of lower.matchAll(RAW)) {
    const hint = SINGLE.get(match[0]);
    if (hint) for (const t of terms(hint)) implied.add(t);
  }
  // A date or a time of day written out asks for a Tool that takes one.
  if (DATE.test(lower)) for (const t of terms("date")) implied.add(t);
  if (TIME.test(lower)) for (const t of terms("time")) implied.add(t);
  // A word already in the request counts there, in full.
  for (const t of words(text)) implied.delete(t);
  return [...implied];
}
