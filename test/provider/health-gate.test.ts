/**
 * `kasm:waitForHealthySeconds` through Pulumi's real dynamic-provider host against the emulator
 * told to answer its health check unhealthy: the first request of the host process waits for
 * Kasm to report healthy and then goes ahead, later ones do not probe again, a deadline that
 * passes fails with an error naming the setting, and a bad value is refused.
 */
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { ProviderHost } from "../helpers/host";
import { Driven, FAST_RETRIES } from "../helpers/provider";
import { API_NAMES_CONFIG } from "../helpers/vocabulary";

let emulator: TestEmulator;
let host: ProviderHost | undefined;

beforeAll(async () => {
  emulator = await startTestEmulator({});
});
afterEach(async () => {
  await host?.stop();
  host = undefined;
  await emulator.raw("DELETE", "/__emulator/health");
});
afterAll(() => emulator?.close());

/** A host (one process, as for one deployment) configured with `waitForHealthySeconds`. */
async function hostWaiting(seconds: string): Promise<ProviderHost> {
  host = await ProviderHost.start();
  await host.configure(
    {
      "kasm:baseUrl": emulator.url,
      "kasm:apiKey": ADMIN.key,
      "kasm:apiKeySecret": ADMIN.secret,
      "kasm:waitForHealthySeconds": seconds,
      ...FAST_RETRIES,
      ...API_NAMES_CONFIG,
    },
    ["kasm:apiKeySecret"],
  );
  return host;
}

async function unhealthy(config: Record<string, number>): Promise<void> {
  const res = await emulator.raw("POST", "/__emulator/health", { body: JSON.stringify(config), headers: { "content-type": "application/json" } });
  expect(res.status).toBe(200);
}

const health = async () => (await emulator.raw("GET", "/__emulator/health")).body as { probes: number; unhealthyAnswers: number };
const userExists = async (username: string) => (await emulator.specCall("get_user", { target_user: { username } })).status === 200;

it("waits for Kasm to report healthy before the first request, then creates; later requests do not probe again", async () => {
  await unhealthy({ unhealthyRequests: 1 });
  const before = await health();
  const h = await hostWaiting("60");

  await new Driven(h, "User", "first").create({ username: "gated-first" });
  expect(await userExists("gated-first")).toBe(true);
  const after = await health();
  // One probe answered unhealthy, then one healthy, before the create went out.
  expect(after.unhealthyAnswers - before.unhealthyAnswers).toBe(1);
  expect(after.probes - before.probes).toBe(2);

  await new Driven(h, "User", "second").create({ username: "gated-second" });
  expect(await userExists("gated-second")).toBe(true);
  expect((await health()).probes).toBe(after.probes);
});

it("fails with an error naming the setting when Kasm is still unhealthy at the deadline, and sends nothing else", async () => {
  await unhealthy({ unhealthyForMs: 600_000 });
  const h = await hostWaiting("1");
  const requests = emulator.requests.length;

  const user = new Driven(h, "User", "late");
  const error = await user.create({ username: "gated-late" }).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(error?.message).toMatch(
    /did not report healthy \(GET \/api\/__healthcheck\) within the 1 s that kasm:waitForHealthySeconds \(or KASM_WAIT_FOR_HEALTHY_SECONDS\) allows/,
  );
  expect(error?.message).toMatch(/last answer: HTTP 503/);
  expect(error?.message).toMatch(/raise the setting/);
  expect(error?.message).not.toContain(ADMIN.secret);
  expect(h.stderr.join("")).not.toContain(ADMIN.secret);
  // No API call went out; a second resource of the same deployment fails the same way without waiting again.
  expect(emulator.requests.slice(requests).filter((line) => !line.includes("__healthcheck"))).toEqual([]);
  const probes = (await health()).probes;
  await expect(new Driven(h, "User", "later").create({ username: "gated-later" })).rejects.toThrow(/kasm:waitForHealthySeconds/);
  expect((await health()).probes).toBe(probes);
  expect(await userExists("gated-late")).toBe(false);
});

it("refuses a value that is not a whole number of seconds, naming the setting", async () => {
  const h = await hostWaiting("soon");
  await expect(new Driven(h, "User", "bad").create({ username: "gated-bad" })).rejects.toThrow(
    /waitForHealthySeconds must be a whole number of at least 0 \(configuration `kasm:waitForHealthySeconds`/,
  );
});
