/**
 * Fault injection through `POST /__emulator/faults`: each kind of fault, the phase it lands in
 * (before the operation runs, or after it committed), the operations it applies to,
 * reproducibility from a seed, clearing, and refused configurations.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, type WireAnswer } from "../helpers/emulator";

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({ zones: [{ zone_name: "default" }] });
});
afterAll(() => emulator.close());
afterEach(async () => {
  await emulator.raw("DELETE", "/__emulator/faults");
});

/** Configure faults; fails the test unless the emulator accepts the configuration. */
async function configure(config: Record<string, unknown>): Promise<WireAnswer> {
  const res = await emulator.raw("POST", "/__emulator/faults", {
    body: JSON.stringify(config),
    headers: { "content-type": "application/json" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

const userExists = async (username: string) =>
  Object.values((await emulator.state()).users as Record<string, { username: string }>).some((u) => u.username === username);

describe("fault injection", () => {
  it("starts with no faults configured", async () => {
    const res = await emulator.raw("GET", "/__emulator/faults");
    expect(res).toMatchObject({ status: 200, body: { config: null, injected: {} } });
    expect((await emulator.call("get_zones")).status).toBe(200);
  });

  it("answers the configuration with its defaults filled in", async () => {
    const res = await configure({ rate: 1, kinds: ["500"] });
    expect(res.body).toEqual({
      config: { rate: 1, kinds: ["500"], latencyMs: 200, seed: 1, phase: "either" },
      injected: {},
    });
  });

  it.each([
    ["500", "Internal Server Error"],
    ["503", "Service Unavailable"],
  ])("fails every call with %s and an error_message when the rate is 1", async (kind, message) => {
    await configure({ rate: 1, kinds: [kind], phase: "before" });
    for (let i = 0; i < 3; i++) {
      const res = await emulator.call("get_zones");
      expect(res.status).toBe(Number(kind));
      expect(res.body).toEqual({ error_message: message });
      expect(res.headers["x-emulator-fault"]).toBe(`${kind}; phase=before`);
    }
  });

  it("fails with 429 and a Retry-After header", async () => {
    await configure({ rate: 1, kinds: ["429"] });
    const res = await emulator.call("get_zones");
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error_message: "Too Many Requests" });
    expect(res.headers["retry-after"]).toBe("1");
    expect(res.headers["x-emulator-fault"]).toMatch(/^429; phase=(before|after)$/);
  });

  it("resets the connection: the client sees a socket error, not a response", async () => {
    await configure({ rate: 1, kinds: ["reset"] });
    await expect(emulator.call("get_zones")).rejects.toMatchObject({ code: "UND_ERR_SOCKET" });
    await emulator.raw("DELETE", "/__emulator/faults");
    expect((await emulator.call("get_zones")).status).toBe(200);
  });

  it("adds latency and then answers normally, saying so in the header", async () => {
    await configure({ rate: 1, kinds: ["latency"], latencyMs: 300 });
    const res = await emulator.call("get_zones");
    expect(res.status).toBe(200);
    expect(res.body.zones).toHaveLength(1);
    expect(res.headers["x-emulator-fault"]).toBe("latency; phase=before; ms=300");
    expect((await emulator.raw("GET", "/__emulator/faults")).body.injected).toEqual({ "latency:before": 1 });
  });

  it("with phase after, commits a create_user although the response is a 500", async () => {
    await configure({ rate: 1, kinds: ["500"], phase: "after" });
    const res = await emulator.call("create_user", { target_user: { username: "ghost-after" } });
    expect(res.status).toBe(500);
    expect(res.headers["x-emulator-fault"]).toBe("500; phase=after");
    await emulator.raw("DELETE", "/__emulator/faults");
    expect(await userExists("ghost-after")).toBe(true);
    // A blind retry of the create now meets the user it made.
    const retry = await emulator.call("create_user", { target_user: { username: "ghost-after" } });
    expect(retry).toMatchObject({ status: 400, body: { error_message: "Error creating user (ghost-after): (User already exists)" } });
  });

  it("with phase before, commits nothing", async () => {
    await configure({ rate: 1, kinds: ["503"], phase: "before" });
    const res = await emulator.call("create_user", { target_user: { username: "ghost-before" } });
    expect(res.status).toBe(503);
    expect(res.headers["x-emulator-fault"]).toBe("503; phase=before");
    await emulator.raw("DELETE", "/__emulator/faults");
    expect(await userExists("ghost-before")).toBe(false);
  });

  it("with phase after and a reset, commits although the client sees a socket error", async () => {
    await configure({ rate: 1, kinds: ["reset"], phase: "after" });
    await expect(emulator.call("create_user", { target_user: { username: "ghost-reset" } })).rejects.toMatchObject({ code: "UND_ERR_SOCKET" });
    await emulator.raw("DELETE", "/__emulator/faults");
    expect(await userExists("ghost-reset")).toBe(true);
  });

  it("fails only the listed operations", async () => {
    await configure({ rate: 1, kinds: ["500"], operations: ["get_zones"] });
    expect((await emulator.call("get_zones")).status).toBe(500);
    const other = await emulator.call("get_staging_configs");
    expect(other.status).toBe(200);
    expect(other.headers["x-emulator-fault"]).toBeUndefined();
  });

  it("counts the faults it injected, by kind and phase", async () => {
    await configure({ rate: 1, kinds: ["503"], phase: "before" });
    await emulator.call("get_zones");
    await emulator.call("get_zones");
    const res = await emulator.raw("GET", "/__emulator/faults");
    expect(res.body.injected).toEqual({ "503:before": 2 });
  });

  it("gives the same sequence of outcomes over 50 calls for the same seed", async () => {
    const run = async (seed: number | string) => {
      await configure({ rate: 0.5, kinds: ["500", "503", "429"], seed });
      const outcomes: string[] = [];
      for (let i = 0; i < 50; i++) {
        const res = await emulator.call("get_zones");
        outcomes.push(`${res.status} ${res.headers["x-emulator-fault"] ?? "-"}`);
      }
      return outcomes;
    };
    const first = await run(42);
    const second = await run(42);
    expect(second).toEqual(first);
    // A mix of successes and failures, of several kinds and both phases.
    expect(first.filter((o) => o.startsWith("200")).length).toBeGreaterThan(5);
    expect(first.filter((o) => !o.startsWith("200")).length).toBeGreaterThan(5);
    expect(new Set(first.filter((o) => !o.startsWith("200")).map((o) => o.split(" ")[0])).size).toBeGreaterThan(1);
    expect(first.some((o) => o.endsWith("phase=before"))).toBe(true);
    expect(first.some((o) => o.endsWith("phase=after"))).toBe(true);
    const other = await run("another seed");
    expect(other).not.toEqual(first);
  });

  it("stops injecting faults after DELETE /__emulator/faults", async () => {
    await configure({ rate: 1, kinds: ["500"] });
    expect((await emulator.call("get_zones")).status).toBe(500);
    const cleared = await emulator.raw("DELETE", "/__emulator/faults");
    expect(cleared.status).toBe(200);
    expect(cleared.body.config).toBeNull();
    for (let i = 0; i < 5; i++) {
      const res = await emulator.call("get_zones");
      expect(res.status).toBe(200);
      expect(res.headers["x-emulator-fault"]).toBeUndefined();
    }
  });

  it("injects nothing at rate 0", async () => {
    await configure({ rate: 0 });
    for (let i = 0; i < 10; i++) expect((await emulator.call("get_zones")).status).toBe(200);
  });

  it.each([
    ["a rate above 1", { rate: 2 }, "rate"],
    ["a negative rate", { rate: -0.5 }, "rate"],
    ["no rate", {}, "rate"],
    ["an unknown kind", { rate: 1, kinds: ["teapot"] }, "kinds"],
    ["an empty list of kinds", { rate: 1, kinds: [] }, "kinds"],
    ["an unknown operation", { rate: 1, operations: ["launch_rocket"] }, "launch_rocket"],
    ["an unknown phase", { rate: 1, phase: "during" }, "phase"],
    ["a negative latency", { rate: 1, kinds: ["latency"], latencyMs: -1 }, "latencyMs"],
  ])("refuses a configuration with %s with 400 and keeps the previous one", async (_what, config, mentioned) => {
    await configure({ rate: 1, kinds: ["503"], phase: "before" });
    const res = await emulator.raw("POST", "/__emulator/faults", {
      body: JSON.stringify(config),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toMatch(/^Invalid fault configuration: /);
    expect(res.body.error_message).toContain(mentioned);
    expect((await emulator.call("get_zones")).status).toBe(503);
  });
  it.each([
    ["curl's default (application/x-www-form-urlencoded)", { "content-type": "application/x-www-form-urlencoded" }],
    ["text/plain", { "content-type": "text/plain" }],
    ["no content type", {}],
  ])("reads a JSON configuration sent with %s", async (_what, headers) => {
    const res = await emulator.raw("POST", "/__emulator/faults", { body: JSON.stringify({ rate: 1, kinds: ["503"], phase: "before" }), headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.config).toMatchObject({ rate: 1, kinds: ["503"] });
    expect((await emulator.call("get_zones")).status).toBe(503);
  });

  it("refuses a body that is not JSON, whatever its content type, with 400", async () => {
    const res = await emulator.raw("POST", "/__emulator/faults", { body: "rate=1", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res).toMatchObject({ status: 400, body: { error_message: "Invalid Request: the body is not valid JSON" } });
    expect((await emulator.call("get_zones")).status).toBe(200);
  });
});
