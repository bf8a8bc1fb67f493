import { handleRegistration, methodNotAllowed } from "@/server/http/tool-host-api";

export const dynamic = "force-dynamic";

const other = methodNotAllowed("POST, PUT");

export { handleRegistration as PUT, handleRegistration as POST, other as GET, other as DELETE, other as PATCH };
