import { handleTrpcRequest } from "@/server/trpc/handler";

export const dynamic = "force-dynamic";

export { handleTrpcRequest as GET, handleTrpcRequest as POST };
