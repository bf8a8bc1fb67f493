/**
 * The demo's SDK Tool Host, "Billing service (demo)": a process of its own, built with the
 * Tool Host SDK as any team would build one. It serves the SDK's invoicing example, two
 * destructive Tools under call policies, and two Tools a model cannot take, so the console
 * shows those states: the SDK publishes the last as registered-but-not-offered and logs how
 * to fix each.
 *
 * Started by server/demo/tool-host-launcher.ts with QM_URL and QM_HOST_TOKEN; it says
 * "ready" over IPC once registered, and closes when told to or when its parent goes away.
 */
import { createToolHost } from "@quartermaster/tool-host";
import { z } from "zod";
import { addInvoicingTools } from "../../sdk/examples/invoicing";

const host = createToolHost({ url: process.env.QM_URL ?? "", token: process.env.QM_HOST_TOKEN ?? "" });
addInvoicingTools(host)
  .tool({
    name: "refund_payment",
    description: "Refund a payment in full or in part.",
    // A top-level "__" argument: published as Schema unsupported, never offered to a model.
    input: z.object({
      paymentId: z.string(),
      amount: z.number().positive().optional(),
      __tenant: z.string().optional(),
    }),
    annotations: { destructiveHint: true },
    handler: () => "Refunds need a human's approval in the demo.",
  })
  // Two destructive Tools the demo puts under call policies (domain/demo/call-policies.ts):
  // voiding asks the agent's user to confirm, refunding waits for an approver.
  .tool({
    name: "void_invoice",
    description: "Void an issued invoice: it can no longer be paid, and the customer is told.",
    input: z.object({ invoiceId: z.string().describe("The invoice to void, e.g. inv_42.") }),
    annotations: { destructiveHint: true, idempotentHint: true },
    handler: ({ invoiceId }) => `Invoice ${invoiceId} voided; the customer was told.`,
  })
  .tool({
    name: "refund_invoice",
    description: "Refund a paid invoice to the card it was paid with.",
    input: z.object({
      invoiceId: z.string().describe("The paid invoice to refund, e.g. inv_42."),
      reason: z.string().describe("Why, as the customer will read it."),
    }),
    annotations: { destructiveHint: true },
    handler: ({ invoiceId }) => `Invoice ${invoiceId} refunded to the card it was paid with.`,
  })
  .tool({
    name: "export_ledger",
    description: "Export ledger rows for a period as CSV.",
    // A root that is not an object: models call Tools with named arguments.
    input: z.array(z.string()),
    handler: (periods) => `period,amount\n${periods.map((p) => `${p},0.00`).join("\n")}`,
  });

let closing = false;
async function close(code: number) {
  if (closing) return;
  closing = true;
  await host.close();
  process.exit(code);
}
process.once("SIGTERM", () => void close(0));
process.once("SIGINT", () => void close(0));
// The launcher's process went away (even killed): a demo host must not outlive the product.
process.once("disconnect", () => void close(0));

try {
  await host.serve();
  process.send?.({ type: "ready" });
} catch (error) {
  console.error(`The demo SDK Tool Host could not start: ${(error as Error).message}`);
  await close(1);
}
