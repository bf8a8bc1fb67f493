import { unknownEndpoint } from "@/server/http/tool-host-api";

export const dynamic = "force-dynamic";

export {
  unknownEndpoint as GET,
  unknownEndpoint as POST,
  unknownEndpoint as PUT,
  unknownEndpoint as DELETE,
  unknownEndpoint as PATCH,
};
