import { handleProgress, methodNotAllowed } from "@/server/http/tool-host-api";

export const dynamic = "force-dynamic";

const other = methodNotAllowed("POST");

export { handleProgress as POST, other as GET, other as PUT, other as DELETE, other as PATCH };
