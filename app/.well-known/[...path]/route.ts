export { DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT } from "@/server/http/discovery-route";

export const dynamic = "force-dynamic";
