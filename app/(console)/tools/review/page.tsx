import type { Metadata } from "next";
import { ReviewPage } from "@/components/tools/review-page";

export const metadata: Metadata = { title: "Review" };

export default function Page() {
  return <ReviewPage />;
}
