import type { Metadata } from "next";
import { ComingLater } from "@/components/ui/later";

export const metadata: Metadata = { title: "Sources" };

export default function Page() {
  return (
    <ComingLater title="Sources" description="MCP Connections and SDK Tool Hosts that publish Tools.">
      Adding MCP Connections and SDK Tool Hosts, catalog checks and their history arrive in the next release.
    </ComingLater>
  );
}
