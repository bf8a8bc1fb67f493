import type { Metadata } from "next";
import { Suspense } from "react";
import { CatalogPage } from "@/components/tools/catalog-page";
import { LoadingRows } from "@/components/ui/states";

export const metadata: Metadata = { title: "Tools Catalog" };

export default function Page() {
  return (
    <Suspense fallback={<LoadingRows label="Loading the catalog" />}>
      <CatalogPage />
    </Suspense>
  );
}
