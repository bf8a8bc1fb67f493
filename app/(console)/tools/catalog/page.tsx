import type { Metadata } from "next";
import { ComingLater } from "@/components/ui/later";

export const metadata: Metadata = { title: "Tools Catalog" };

export default function Page() {
  return (
    <ComingLater
      title="Tools Catalog"
      description="Every Tool that any Source publishes, and whether a model can be offered it."
    >
      The catalog arrives with Sources: each Tool, its Source, its model-compatibility state and size.
    </ComingLater>
  );
}
