/**
 * What a request implies beyond its own words, for find_tools only: a question word says
 * what kind of answer is wanted ("when" → a date), a currency or a unit says what is being
 * converted. Added to the request's terms at a lower weight, never to a Tool's, so they
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
  // A word already in the request counts there, in full.
  for (const t of words(text)) implied.delete(t);
  return [...implied];
}
