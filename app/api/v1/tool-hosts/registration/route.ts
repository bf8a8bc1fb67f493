import { handleRegistration } from "@/server/http/tool-host-api";

export const dynamic = "force-dynamic";

export { handleRegistration as PUT, handleRegistration as POST };
