import { LoadingRows } from "@/components/ui/states";

export default function Loading() {
  return <LoadingRows label="Loading page" />;
}
