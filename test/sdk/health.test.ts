/**
 * The sdk's `waitForHealthy()` against the emulator told to answer its health check unhealthy:
 * it waits with the program's `kasm:` configuration, its deadline defaults to
 * `kasm:waitForHealthySeconds`, it fails with the health-check error when Kasm stays unhealthy,
 * and once it has seen Kasm healthy the lookups of the same process do not wait again. With a
 * connection, it waits for that installation, by its own settings.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { KasmHealthCheckError } from "../../provider/api";
import * as kasm from "../../sdk";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";

let emulator: TestEmulator;
beforeAll(async () => {
  // The settings must come from the configuration, not from a KASM_* variable of the test's environment.
  for (const name of Object.keys(process.env)) if (name.startsWith("KASM_")) delete process.env[name];
  emulator = await startTestEmulator({ images: [{ name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }] });
});
afterEach(async () => {
  await emulator.raw("DELETE", "/__emulator/health");
});
afterAll(() => emulator?.close());

function configure(extra: Record<string, string> = {}): void {
  pulumi.runtime.setAllConfig({ "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, ...extra });
}

async function unhealthy(config: Record<string, number>): Promise<void> {
  const res = await emulator.raw("POST", "/__emulator/health", { body: JSON.stringify(config), headers: { "content-type": "application/json" } });
  expect(res.status).toBe(200);
}

it("fails with the health-check error, naming the probes and the last answer, when Kasm stays unhealthy past the deadline", async () => {
  configure();
  await unhealthy({ unhealthyForMs: 600_000 });
  const error = await kasm.waitForHealthy({ deadlineMs: 300, initialDelayMs: 50, maxDelayMs: 50 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KasmHealthCheckError);
  expect((error as Error).message).toMatch(/did not report healthy within \d+ ms \(\d+ attempt\(s\)\); last failure: HTTP 503/);
  expect((error as Error).message).not.toContain(ADMIN.secret);
});

it("takes its deadline from kasm:waitForHealthySeconds when none is given", async () => {
  // Without the setting the default deadline (5 minutes) would outlast the test's timeout.
  configure({ "kasm:waitForHealthySeconds": "1" });
  await unhealthy({ unhealthyForMs: 600_000 });
  await expect(kasm.waitForHealthy({ initialDelayMs: 100, maxDelayMs: 100 })).rejects.toBeInstanceOf(KasmHealthCheckError);
});

it("waits until Kasm reports healthy; afterwards the program's lookups do not wait for it again", async () => {
  configure({ "kasm:waitForHealthySeconds": "60" });
  await unhealthy({ unhealthyRequests: 2 });
  const result = await kasm.waitForHealthy({ initialDelayMs: 20, maxDelayMs: 20 });
  expect(result.attempts).toBe(3);

  // Unhealthy from now on: a lookup that waited would fail after 60 s; this one was cleared above.
  await unhealthy({ unhealthyForMs: 600_000 });
  const probes = ((await emulator.raw("GET", "/__emulator/health")).body as { probes: number }).probes;
  expect((await kasm.getImages()).map((i) => i.name)).toEqual(["kasmweb/chrome:1.16.0"]);
  expect(((await emulator.raw("GET", "/__emulator/health")).body as { probes: number }).probes).toBe(probes);
});

it("waits for a named connection's installation, with its own settings, and never the default one's", async () => {
  // The default connection points nowhere: only the connection's settings can reach the emulator.
  pulumi.runtime.setAllConfig({
    "kasm:baseUrl": "http://127.0.0.1:1",
    "kasm:apiKey": "nobody",
    "kasm:apiKeySecret": "nothing",
    "kasm-prod:baseUrl": emulator.url,
    "kasm-prod:apiKey": ADMIN.key,
    "kasm-prod:apiKeySecret": ADMIN.secret,
  });
  await unhealthy({ unhealthyRequests: 1 });
  const result = await kasm.waitForHealthy({ connection: new kasm.Connection("prod"), initialDelayMs: 20, maxDelayMs: 20, deadlineMs: 5_000 });
  expect(result.attempts).toBe(2);
  // A lookup through the same connection reads that installation.
  expect((await kasm.getImages({ connection: "prod" })).map((i) => i.name)).toEqual(["kasmweb/chrome:1.16.0"]);
  // A connection without settings names its own keys.
  await expect(kasm.waitForHealthy({ connection: "archive" })).rejects.toThrow(
    /The Kasm connection "archive" is not configured: missing: baseUrl \(configuration `kasm-archive:baseUrl`.*KASM_ARCHIVE_BASE_URL/,
  );
});
