import { Callout } from "@/components/ui/callout";
import { errorMessage } from "@/components/ui/use-error";

/** The choices of a duration menu (check interval, heartbeat timeout). */
export function DurationOptions({ options }: { options: ReadonlyArray<{ seconds: number; label: string }> }) {
  return (
    <>
      {options.map((o) => (
        <option key={o.seconds} value={o.seconds}>
          {o.label}
        </option>
      ))}
    </>
  );
}

/** A form's error that no field shows (fieldErrors().unplaced), so it is never lost. */
export function UnplacedError({ error, title }: { error: unknown; title: string }) {
  if (!error) return null;
  return (
    <Callout tone="danger" role="alert" title={title}>
      {errorMessage(error)}
    </Callout>
  );
}
