/**
 * The route handlers of every OAuth discovery path (app/authorize, app/register, app/token,
 * app/.well-known/…): each method answers the same JSON, so the route files re-export these
 * and keep only their own `dynamic` (Next.js reads that literal from the route file itself).
 */
import { handleDiscovery } from "./oauth-discovery";

export {
  handleDiscovery as DELETE,
  handleDiscovery as GET,
  handleDiscovery as HEAD,
  handleDiscovery as OPTIONS,
  handleDiscovery as PATCH,
  handleDiscovery as POST,
  handleDiscovery as PUT,
};
