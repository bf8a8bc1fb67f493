import { handleScopeExport } from "@/server/http/scope-files";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleScopeExport(request, (await params).id);
}
