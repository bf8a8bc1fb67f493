// Schema depth and node counts are SDK Tool Host contract limits: one implementation, in the SDK package.
export { measureSchemas, type SchemaMeasure } from "@/sdk/src/contract/schema-measure";
