/**
 * Numbers and sizes in words, for the server's messages and the console alike. The SDK
 * writes its local refusals with the same words, so the one formatter lives in the SDK
 * package (which must build on its own) and everything else imports it from here.
 */
export { fmt, fmtBytes } from "@/sdk/src/contract/format";
