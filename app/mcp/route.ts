import { handleMcpOther, handleMcpPost } from "@/server/mcp/handler";

export const dynamic = "force-dynamic";

export {
  handleMcpOther as GET,
  handleMcpOther as DELETE,
  handleMcpOther as PUT,
  handleMcpOther as PATCH,
  handleMcpPost as POST,
};
