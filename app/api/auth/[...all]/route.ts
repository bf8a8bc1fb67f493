import { getAuth } from "@/server/auth";

export const dynamic = "force-dynamic";

async function handle(req: Request): Promise<Response> {
  return (await getAuth()).handler(req);
}

export { handle as GET, handle as POST };
