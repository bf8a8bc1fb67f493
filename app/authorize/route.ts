import { handleDiscovery } from "@/server/http/oauth-discovery";

export const dynamic = "force-dynamic";

export {
  handleDiscovery as GET,
  handleDiscovery as HEAD,
  handleDiscovery as POST,
  handleDiscovery as OPTIONS,
  handleDiscovery as PUT,
  handleDiscovery as DELETE,
  handleDiscovery as PATCH,
};
