import { handleScopeImport } from "@/server/http/scope-files";

export const dynamic = "force-dynamic";

export { handleScopeImport as POST };
