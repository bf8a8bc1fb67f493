import { handleApprove } from "@/server/auth/oauth-approve";

export const dynamic = "force-dynamic";

export { handleApprove as POST };
