import { handleGoodbye, methodNotAllowed } from "@/server/http/tool-host-api";

export const dynamic = "force-dynamic";

const other = methodNotAllowed("POST");

export { handleGoodbye as POST, other as GET, other as PUT, other as DELETE, other as PATCH };
