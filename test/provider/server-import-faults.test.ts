/**
 * ServerImport when the import's answer is lost, through Pulumi's real dynamic-provider host: the
 * import is not sent twice (Kasm cannot delete a server created twice), the error says the outcome
 * is not known, how many servers are confirmed and left, and what to check before running again;
 * the state is as before, so the next up imports the same rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({ zones: [{ zone_name: "default" }] });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** The servers Kasm holds with these names. */
async function serversNamed(names: readonly string[]): Promise<string[]> {
  const state = await emulator.state();
  return Object.values<any>(state.servers ?? {})
    .map((s) => s.friendly_name)
    .filter((n) => names.includes(n));
}

describe("ServerImport with a lost answer", () => {
  it("sends the import once, says the outcome is not known and what to check, and keeps the state as it was", async () => {
    const set = new Driven(host, "ServerImport", "lost");
    const servers = [
      { name: "lost-1", ipHostname: "10.9.0.1", port: 22, zoneName: "default", connectionType: "SSH" },
      { name: "lost-2", ipHostname: "10.9.0.2", port: 22, zoneName: "default", connectionType: "SSH" },
    ];
    const from = emulator.requests.length;
    await emulator.faults({ rate: 1, kinds: ["500"], operations: ["batch_create_server"], phase: "after", seed: 1 });
    let error: unknown;
    try {
      error = await set.create({ servers }).catch((e: unknown) => e);
    } finally {
      await emulator.faults(null);
    }
    const message = (error as Error).message;
    expect(message).toMatch(/the import of 2 servers \('lost-1', 'lost-2'\) failed and its outcome is not known/);
    expect(message).toMatch(/0 of 2 are confirmed, 2 left/);
    expect(message).toMatch(/Infrastructure, Servers.*run `pulumi up` again/s);
    expect(set.id).toBe("");
    // Sent once: the servers exist once, and no second import made them twice.
    expect(emulator.requests.slice(from).filter((line) => /^batch_create_server \d{3} /.test(line)).length).toBe(1);
    expect((await serversNamed(["lost-1", "lost-2"])).sort()).toEqual(["lost-1", "lost-2"]);
  });
});
