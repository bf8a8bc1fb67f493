import { expect, test } from "./fixtures";

// The SDK Tool Host API is for programs: every answer, even to a wrong path or method, is
// JSON they can read, never the console's HTML error page.
test("the SDK Tool Host API answers a wrong path or method with a JSON error", async ({ request }) => {
  const wrongPath = await request.post("/api/v1/tool-hosts/register", { data: { tools: [] } });
  expect(wrongPath.status()).toBe(404);
  expect(await wrongPath.json()).toMatchObject({ code: "NOT_FOUND" });
  expect((await wrongPath.json()).message).toContain("/api/v1/tool-hosts/registration");

  const wrongMethod = await request.get("/api/v1/tool-hosts/heartbeat");
  expect(wrongMethod.status()).toBe(405);
  expect(wrongMethod.headers().allow).toBe("POST");
  expect(await wrongMethod.json()).toMatchObject({ code: "METHOD_NOT_ALLOWED" });

  const noToken = await request.post("/api/v1/tool-hosts/heartbeat");
  expect(noToken.status()).toBe(401);
  expect(await noToken.json()).toMatchObject({ code: "UNAUTHENTICATED" });
});
