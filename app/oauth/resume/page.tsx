import { redirect } from "next/navigation";
import { resumeAuthorization } from "@/components/oauth/resume";

export const dynamic = "force-dynamic";

/** After sign-in: the client's authorization request again, now with a session. */
export default async function ResumePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  redirect(resumeAuthorization(await searchParams));
}
