/**
 * The health endpoint (`GET /api/__healthcheck`) and its control route (`POST /__emulator/health`):
 * healthy by default, unhealthy for a number of probes or for a time (503 with `ok: false`), the
 * API routes unaffected meanwhile, and refused configurations.
 */
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({ zones: [{ zone_name: "default" }] });
});
afterAll(() => emulator.close());
afterEach(async () => {
  await emulator.raw("DELETE", "/__emulator/health");
});

const probe = () => emulator.raw("GET", "/api/__healthcheck");

it("answers healthy by default", async () => {
  expect(await probe()).toMatchObject({ status: 200, body: { ok: true } });
  expect((await emulator.raw("GET", "/__emulator/health")).body).toMatchObject({ healthy: true, unhealthyRequests: 0 });
});

it("answers 503 and ok: false for the number of probes it was told, then healthy, while the API keeps answering", async () => {
  // curl's default form content type: the control routes read JSON whatever the type says.
  const set = await emulator.raw("POST", "/__emulator/health", {
    body: JSON.stringify({ unhealthyRequests: 2 }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  expect(set).toMatchObject({ status: 200, body: { healthy: false, unhealthyRequests: 2 } });
  expect((await emulator.call("get_zones")).status).toBe(200);
  for (let i = 0; i < 2; i++) {
    const res = await probe();
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ ok: false });
    expect(String((res.body as { error_message: string }).error_message)).toMatch(/__emulator\/health/);
  }
  expect(await probe()).toMatchObject({ status: 200, body: { ok: true } });
  expect((await emulator.raw("GET", "/__emulator/health")).body).toMatchObject({ healthy: true, unhealthyAnswers: 2, probes: 4 });
});

it("answers unhealthy for a time until told otherwise", async () => {
  await emulator.raw("POST", "/__emulator/health", {
    body: JSON.stringify({ unhealthyForMs: 600_000 }),
    headers: { "content-type": "application/json" },
  });
  expect((await probe()).status).toBe(503);
  expect((await probe()).status).toBe(503);
  const state = (await emulator.raw("GET", "/__emulator/health")).body as { healthy: boolean; unhealthyForMs: number };
  expect(state.healthy).toBe(false);
  expect(state.unhealthyForMs).toBeGreaterThan(0);
  await emulator.raw("DELETE", "/__emulator/health");
  expect((await probe()).status).toBe(200);
});

it.each([
  [{ unhealthyForMs: -1 }, /unhealthyForMs: expected a whole number of milliseconds/],
  [{ unhealthyRequests: "3" }, /unhealthyRequests: expected a whole number of probes/],
  [{ unhealthy: true }, /Invalid health configuration: .*unhealthy/],
])("refuses %j with a message naming the field", async (body, message) => {
  const res = await emulator.raw("POST", "/__emulator/health", { body: JSON.stringify(body), headers: { "content-type": "application/json" } });
  expect(res.status).toBe(400);
  expect(String((res.body as { error_message: string }).error_message)).toMatch(message);
  expect((await probe()).status).toBe(200);
});
