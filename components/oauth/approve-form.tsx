"use client";

import { type FormEvent, useEffect, useState } from "react";
import { Button } from "../ui/button";
import { Field, Select } from "../ui/field";

/** Approve or deny; the server answers where the browser goes next (back to the client). */
export function ApproveForm({
  identities,
  mayApprove,
  consent,
}: {
  identities: { id: string; name: string }[];
  mayApprove: boolean;
  consent: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // Until hydrated the form has no handler: a click would submit it natively, a GET that
  // drops the signed request from the address, and the page would no longer know the client.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // Answered in another tab: this page can change nothing more, so it offers nothing.
  const [answered, setAnswered] = useState<string | null>(null);

  async function send(accept: boolean, identityId?: string) {
    setPending(true);
    setError(null);
    const res = await fetch("/api/oauth/approve", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ oauth_query: window.location.search.slice(1), accept, identityId, consent }),
    });
    const body = (await res.json().catch(() => null)) as {
      redirect?: string;
      message?: string;
      code?: string;
    } | null;
    if (res.ok && body?.redirect) {
      window.location.assign(body.redirect);
      return;
    }
    setPending(false);
    if (body?.code === "ALREADY_ANSWERED") {
      setAnswered(body.message ?? "This request was already answered in another tab.");
      return;
    }
    setError(body?.message ?? "The approval failed.");
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const identityId = String(new FormData(event.currentTarget).get("identityId") ?? "");
    void send(true, identityId);
  }

  if (answered)
    return (
      <p role="alert" data-testid="oauth-answered">
        {answered}
      </p>
    );
  if (mayApprove && identities.length === 0)
    return (
      <p role="alert">There is no Agent Identity yet: create one under Agents, then start again from the client.</p>
    );
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      {mayApprove ? (
        <Field label="Act as Agent Identity" error={error}>
          {(p) => (
            <Select {...p} name="identityId" required>
              {identities.map((identity) => (
                <option key={identity.id} value={identity.id}>
                  {identity.name}
                </option>
              ))}
            </Select>
          )}
        </Field>
      ) : error ? (
        <p role="alert">{error}</p>
      ) : null}
      <div className="flex gap-2">
        {mayApprove ? (
          <Button type="submit" disabled={pending || !hydrated}>
            Approve
          </Button>
        ) : null}
        <Button type="button" variant="secondary" disabled={pending || !hydrated} onClick={() => void send(false)}>
          Deny
        </Button>
      </div>
    </form>
  );
}
