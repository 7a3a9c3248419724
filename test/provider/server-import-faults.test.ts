/**
 * ServerImport when the import's answer is lost, through Pulumi's real dynamic-provider host. The
 * import is never sent blindly a second time (Kasm cannot delete a server created twice):
 * - with the API documentation's vocabulary, which cannot list servers, the error says the outcome
 *   is not known, how many servers are confirmed and left, and what to check before running
 *   again; the state is as before, so the next up imports the same rows;
 * - with a released Kasm's (`kasm:apiNames product`), the servers listed before the import tell
 *   the import's own from the others after the failure: an import that committed (its answer a
 *   500, a 429 or a reset) is recorded with the servers it made, once; one that did not is sent
 *   again, as often as the retry settings allow.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, FAST_RETRIES, hostFor } from "../helpers/provider";
import { TEST_API_NAMES } from "../helpers/vocabulary";

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  // A server named as a row, made outside the set: never taken for the import's.
  emulator = await startTestEmulator({
    zones: [{ zone_name: "default" }],
    servers: [{ hostname: "10.9.9.9", friendly_name: "found-1", zone_name: "default" }],
  });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** The ids of the servers Kasm holds with this name. */
async function serversNamed(name: string): Promise<string[]> {
  const state = await emulator.state();
  return Object.values<any>(state.servers ?? {})
    .filter((s) => s.friendly_name === name)
    .map((s) => String(s.server_id).replace(/-/g, ""));
}

/** How many imports reached Kasm since request number `from` (a fault after commit logs the import's own line too). */
const importsSince = (from: number) => emulator.requests.slice(from).filter((line) => /^batch_create_server \d{3} /.test(line)).length;

const rows = (prefix: string) => [
  { name: `${prefix}-1`, ipHostname: "10.9.0.1", port: 22, zoneName: "default", connectionType: "SSH" },
  { name: `${prefix}-2`, ipHostname: "10.9.0.2", port: 22, zoneName: "default", connectionType: "SSH" },
];

/** Create a set while every import fails so. */
async function createFailing(name: string, servers: object[], faults: Record<string, unknown>): Promise<{ set: Driven; error: unknown; from: number }> {
  const set = new Driven(host, "ServerImport", name);
  const from = emulator.requests.length;
  await emulator.faults({ rate: 1, operations: ["batch_create_server"], seed: 1, ...faults });
  try {
    return {
      set,
      error: await set.create({ servers }).then(
        () => undefined,
        (e: unknown) => e,
      ),
      from,
    };
  } finally {
    await emulator.faults(null);
  }
}

describe.runIf(TEST_API_NAMES === "spec")("ServerImport with a lost answer, where the servers cannot be listed", () => {
  it("sends the import once, says the outcome is not known and what to check, and keeps the state as it was", async () => {
    for (const [kind, prefix] of [
      ["500", "lost"],
      ["429", "limited"],
    ] as const) {
      const { set, error, from } = await createFailing(`${prefix}`, rows(prefix), { kinds: [kind], phase: "after" });
      const message = (error as Error).message;
      expect(message).toMatch(new RegExp(`the import of 2 servers \\('${prefix}-1', '${prefix}-2'\\) failed and its outcome is not known`));
      expect(message).toMatch(/cannot list them/);
      expect(message).toMatch(/0 of 2 are confirmed, 2 left/);
      expect(message).toMatch(/Infrastructure, Servers.*run `pulumi up` again/s);
      expect(set.id).toBe("");
      // Sent once: the servers exist once, and no second import made them twice.
      expect(importsSince(from)).toBe(1);
      expect((await serversNamed(`${prefix}-1`)).length).toBe(1);
      expect((await serversNamed(`${prefix}-2`)).length).toBe(1);
    }
  });
});

describe.runIf(TEST_API_NAMES === "product")("ServerImport with a lost answer, on a released Kasm that lists its servers", () => {
  for (const kind of ["500", "429", "reset"] as const) {
    it(`an import that committed and was answered ${kind === "reset" ? "with a dropped connection" : `HTTP ${kind}`} is recorded with the servers it made, sent once`, async () => {
      const prefix = `committed-${kind}`;
      const { set, error, from } = await createFailing(prefix, rows(prefix), { kinds: [kind], phase: "after" });
      expect(error).toBeUndefined();
      expect(importsSince(from)).toBe(1);
      const made1 = await serversNamed(`${prefix}-1`);
      const made2 = await serversNamed(`${prefix}-2`);
      expect([made1.length, made2.length]).toEqual([1, 1]);
      expect(set.state.serverIds).toEqual({ [`${prefix}-1`]: made1[0], [`${prefix}-2`]: made2[0] });
    });
  }

  it("a server of a row's name made outside the set is not taken for the import's", async () => {
    const [outside] = await serversNamed("found-1");
    const { set, error } = await createFailing("found", rows("found"), { kinds: ["503"], phase: "after" });
    expect(error).toBeUndefined();
    const found1 = await serversNamed("found-1");
    expect(found1).toHaveLength(2);
    expect((set.state.serverIds as Record<string, string>)["found-1"]).toBe(found1.find((id) => id !== outside));
  });

  it("an import that did not commit is sent again by the retry settings, and fails with Kasm's answer when every attempt fails", async () => {
    const { set, error, from } = await createFailing("refused", rows("refused"), { kinds: ["503"], phase: "before" });
    expect((error as Error).message).toMatch(/batch_create_server: the server failed \(HTTP 503/);
    expect(set.id).toBe("");
    // The first attempt and one per retry, each refused before Kasm ran it and followed by a listing that found nothing.
    const sent = emulator.requests
      .slice(from)
      .filter((line) => /^(batch_create_server fault|get_servers 200)/.test(line))
      .map((line) => line.split(" ")[0]);
    const attempts = Number(FAST_RETRIES["kasm:maxRetries"]) + 1;
    expect(sent).toEqual(["get_servers", ...Array.from({ length: attempts }, () => ["batch_create_server", "get_servers"]).flat()]);
    expect(await serversNamed("refused-1")).toEqual([]);
  });
});
