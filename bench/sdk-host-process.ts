/**
 * The benchmark's SDK Tool Host, a process of its own as a real host is: one Tool that
 * answers at once, built with the SDK's defaults. Prints "ready" once registered.
 */
import { createToolHost } from "@quartermaster/tool-host";
import { z } from "zod";

const host = createToolHost({ url: process.env.QM_URL ?? "", token: process.env.QM_HOST_TOKEN ?? "", logger: false });
host.tool({
  name: "bench_echo",
  description: "Echo the text back.",
  input: z.object({ text: z.string() }),
  handler: ({ text }) => `echo: ${text}`,
});
await host.serve();
console.log("ready");
process.once("SIGTERM", () => void host.close().then(() => process.exit(0)));
