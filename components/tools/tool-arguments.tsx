import { OctagonAlert } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import type { CompatibilityState } from "@/universal/compatibility";
import { RESERVED_ARGUMENT_PREFIX } from "@/universal/limits";

interface Argument {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function typeOf(schema: unknown): string {
  if (!isObject(schema)) return "any";
  if (typeof schema.type === "string") {
    if (schema.type === "array" && isObject(schema.items) && typeof schema.items.type === "string")
      return `${schema.items.type}[]`;
    return schema.type;
  }
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  if (Array.isArray(schema.enum)) return "enum";
  if (typeof schema.$ref === "string") return schema.$ref.split("/").at(-1) ?? "ref";
  for (const k of ["anyOf", "oneOf", "allOf"] as const) {
    if (Array.isArray(schema[k])) return schema[k].map(typeOf).join(k === "allOf" ? " & " : " | ");
  }
  return "any";
}

/**
 * The top-level arguments of an input schema, as an operator scans them. A name listed
 * as required without a schema of its own still gets a row: it may be the one at fault.
 */
export function argumentsOf(inputSchema: unknown): Argument[] {
  if (!isObject(inputSchema)) return [];
  const properties = isObject(inputSchema.properties) ? inputSchema.properties : {};
  const required = new Set(Array.isArray(inputSchema.required) ? inputSchema.required.map(String) : []);
  const listed = Object.entries(properties).map(([name, schema]) => ({
    name,
    type: typeOf(schema),
    required: required.has(name),
    description: isObject(schema) && typeof schema.description === "string" ? schema.description : "",
  }));
  const undeclared = [...required]
    .filter((name) => !Object.hasOwn(properties, name))
    .map((name) => ({ name, type: "undeclared", required: true, description: "" }));
  return [...listed, ...undeclared];
}

function refersOutside(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(refersOutside);
  if (!isObject(schema)) return false;
  return Object.entries(schema).some(
    ([k, v]) =>
      ((k === "$ref" || k === "$dynamicRef") && typeof v === "string" && !v.startsWith("#")) ||
      (typeof v === "object" && refersOutside(v)),
  );
}

/**
 * Which arguments make the Tool unofferable, by the same rules as its state
 * (server/domain/catalog/compatibility.ts): a reserved "__" name, or a reference to
 * another document. The catalog's reason never names the argument (the contract); the
 * operator, who sees the schema anyway, gets it pointed at here.
 */
export function offendingArguments(inputSchema: unknown, state: CompatibilityState): Map<string, string> {
  const out = new Map<string, string>();
  if (!isObject(inputSchema)) return out;
  if (state === "schema_unsupported") {
    for (const a of argumentsOf(inputSchema))
      if (a.name.startsWith(RESERVED_ARGUMENT_PREFIX)) out.set(a.name, `Starts with “${RESERVED_ARGUMENT_PREFIX}”`);
  }
  if (state === "external_ref" && isObject(inputSchema.properties)) {
    for (const [name, schema] of Object.entries(inputSchema.properties))
      if (refersOutside(schema)) out.set(name, "Refers to another document ($ref)");
  }
  return out;
}

export function ToolArguments({ inputSchema, state }: { inputSchema: unknown; state: CompatibilityState }) {
  const args = argumentsOf(inputSchema);
  const offending = offendingArguments(inputSchema, state);
  if (args.length === 0) return <p className="text-sm text-muted">This Tool takes no top-level arguments.</p>;
  return (
    <Table aria-label="Arguments">
      <thead>
        <tr>
          <Th>Argument</Th>
          <Th>Type</Th>
          <Th>Required</Th>
          <Th>Description</Th>
        </tr>
      </thead>
      <tbody>
        {args.map((a) => {
          const problem = offending.get(a.name);
          return (
            <tr
              key={a.name}
              data-testid={problem ? "offending-argument" : undefined}
              className={problem ? "bg-danger-soft" : undefined}
            >
              <Td className="font-mono text-xs">
                <span className={problem ? "font-semibold text-danger" : undefined}>{a.name}</span>
                {problem && (
                  <span className="mt-1 flex items-center gap-1 font-sans text-xs font-medium text-danger">
                    <OctagonAlert className="size-3.5 shrink-0" aria-hidden />
                    {problem}: why no model is offered this Tool
                  </span>
                )}
              </Td>
              <Td className="font-mono text-xs text-muted">{a.type}</Td>
              <Td>
                {a.required ? <Badge tone="accent">required</Badge> : <span className="text-muted">optional</span>}
              </Td>
              <Td className="text-sm">{a.description || <span className="text-muted">—</span>}</Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
