import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";

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

/** The top-level arguments of an input schema, as an operator scans them. */
export function argumentsOf(inputSchema: unknown): Argument[] {
  if (!isObject(inputSchema) || !isObject(inputSchema.properties)) return [];
  const required = new Set(Array.isArray(inputSchema.required) ? inputSchema.required.map(String) : []);
  return Object.entries(inputSchema.properties).map(([name, schema]) => ({
    name,
    type: typeOf(schema),
    required: required.has(name),
    description: isObject(schema) && typeof schema.description === "string" ? schema.description : "",
  }));
}

export function ToolArguments({ inputSchema }: { inputSchema: unknown }) {
  const args = argumentsOf(inputSchema);
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
        {args.map((a) => (
          <tr key={a.name}>
            <Td className="font-mono text-xs">{a.name}</Td>
            <Td className="font-mono text-xs text-muted">{a.type}</Td>
            <Td>{a.required ? <Badge tone="accent">required</Badge> : <span className="text-muted">optional</span>}</Td>
            <Td className="text-sm">{a.description || <span className="text-muted">—</span>}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
