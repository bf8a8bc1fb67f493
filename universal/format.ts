/**
 * Numbers and sizes in words, and a text's size in UTF-8, for the server's messages and the
 * console alike. The SDK writes its local refusals with the same words and measures with the
 * same count, so each lives in the SDK package (which must build on its own) and everything
 * else imports it from here.
 */
export { utf8Bytes } from "@/sdk/src/contract/canonical";
export { fmt, fmtBytes, fmtSize } from "@/sdk/src/contract/format";
