/**
 * A small invoicing service as an SDK Tool Host: three Tools over an in-memory ledger.
 *
 *   QM_URL=http://127.0.0.1:3000 QM_HOST_TOKEN=qm_host_… npx tsx examples/invoicing.ts   (node_modules/@quartermaster/tool-host/examples/ once installed)
 *
 * `addInvoicingTools` is exported so Quartermaster's demo serves the same Tools.
 */
import { pathToFileURL } from "node:url";
import { createToolHost, type ToolHost } from "@quartermaster/tool-host";
import { z } from "zod";

interface Line {
  sku: string;
  quantity: number;
}
interface Invoice {
  id: string;
  customerId: string;
  currency: "EUR" | "USD" | "GBP";
  lines: (Line & { unitPrice: number })[];
  status: "draft" | "sent" | "paid";
  createdAt: string;
}

/** The service's data: prices, customers and invoices (a real service reads its database). */
export function sampleLedger() {
  const prices: Record<string, number> = { "SEAT-STD": 12, "SEAT-PRO": 29, SUPPORT: 150, ONBOARDING: 900 };
  const customers = [
    { id: "cus_104", name: "Northwind Traders", email: "billing@northwind.example", since: "2026-09-14" },
    { id: "cus_103", name: "Contoso Ltd", email: "ap@contoso.example", since: "2026-06-02" },
    { id: "cus_102", name: "Fabrikam GmbH", email: "rechnung@fabrikam.example", since: "2026-03-21" },
    { id: "cus_101", name: "Tailspin Toys", email: "finance@tailspin.example", since: "2025-11-30" },
  ];
  const invoices = new Map<string, Invoice>([
    [
      "inv_42",
      {
        id: "inv_42",
        customerId: "cus_102",
        currency: "EUR",
        lines: [
          { sku: "SEAT-PRO", quantity: 10, unitPrice: 29 },
          { sku: "SUPPORT", quantity: 1, unitPrice: 150 },
        ],
        status: "paid",
        createdAt: "2026-11-02",
      },
    ],
  ]);
  return { prices, customers, invoices, nextId: 43 };
}

const total = (invoice: Invoice) => invoice.lines.reduce((sum, l) => sum + l.quantity * l.unitPrice, 0);

export function addInvoicingTools(host: ToolHost, ledger = sampleLedger()): ToolHost {
  return host
    .tool({
      name: "create_invoice",
      title: "Create invoice",
      description: "Create a draft invoice for a customer. Returns the invoice id, its total and a link to review it.",
      input: z.object({
        customerId: z.string().describe("Customer id, e.g. cus_101"),
        lines: z
          .array(
            z.object({ sku: z.string().describe("Product code, e.g. SEAT-PRO"), quantity: z.number().int().min(1) }),
          )
          .min(1),
        currency: z.enum(["EUR", "USD", "GBP"]).default("EUR"),
      }),
      output: z.object({
        invoiceId: z.string(),
        status: z.literal("draft"),
        total: z.number(),
        currency: z.string(),
        reviewUrl: z.string(),
      }),
      handler: ({ customerId, lines, currency }) => {
        if (!ledger.customers.some((c) => c.id === customerId))
          throw new Error(`No customer ${customerId}; list_customers finds customers by name or email.`);
        const unknown = lines.filter((l) => ledger.prices[l.sku] === undefined).map((l) => l.sku);
        if (unknown.length)
          throw new Error(
            `Unknown product code(s): ${unknown.join(", ")}. Known: ${Object.keys(ledger.prices).join(", ")}.`,
          );
        const invoice: Invoice = {
          id: `inv_${ledger.nextId++}`,
          customerId,
          currency,
          lines: lines.map((l) => ({ ...l, unitPrice: ledger.prices[l.sku] ?? 0 })),
          status: "draft",
          createdAt: new Date().toISOString().slice(0, 10),
        };
        ledger.invoices.set(invoice.id, invoice);
        return {
          invoiceId: invoice.id,
          status: "draft" as const,
          total: total(invoice),
          currency,
          reviewUrl: `https://billing.example/invoices/${invoice.id}`,
        };
      },
    })
    .tool({
      name: "get_invoice",
      title: "Get invoice",
      description: "Read one invoice with its lines, totals and payment status.",
      input: z.object({ invoiceId: z.string().describe("Invoice id, e.g. inv_42") }),
      annotations: { readOnlyHint: true },
      handler: ({ invoiceId }) => {
        const invoice = ledger.invoices.get(invoiceId);
        if (!invoice) throw new Error(`No invoice ${invoiceId}.`);
        const lines = invoice.lines.map((l) => `  ${l.quantity} × ${l.sku} at ${l.unitPrice.toFixed(2)}`).join("\n");
        return `Invoice ${invoice.id} for ${invoice.customerId}, ${invoice.createdAt}: ${total(invoice).toFixed(2)} ${invoice.currency}, ${invoice.status}.\n${lines}`;
      },
    })
    .tool({
      name: "list_customers",
      title: "List customers",
      description: "List customers whose name or email matches a query, newest first.",
      input: z.object({
        query: z.string().optional().describe("Part of a name or email; all customers when left out"),
        limit: z.number().int().min(1).max(100).default(20),
      }),
      annotations: { readOnlyHint: true },
      handler: ({ query, limit }) => {
        const q = query?.toLowerCase() ?? "";
        return ledger.customers.filter((c) => c.name.toLowerCase().includes(q) || c.email.includes(q)).slice(0, limit);
      },
    });
}

// Run directly: serve until SIGINT or SIGTERM, then finish the calls in flight.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const host = createToolHost({
    url: process.env.QM_URL ?? "http://127.0.0.1:3000",
    token: process.env.QM_HOST_TOKEN ?? "",
  });
  addInvoicingTools(host);
  await host.serve();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void host.close());
}
