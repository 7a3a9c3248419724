/**
 * ServerDrain through Pulumi's real dynamic-provider host against the emulator: check (and its
 * default), create, diff (ids in either form), in-place updates, replacement by another server,
 * refresh after drift and after the server's removal, and destroy restoring the flag.
 *
 * The spec's server record does not list `is_draining`, so the emulator's default (spec-only)
 * mode does not send it: refresh keeps the declared value and warns that drift cannot be seen.
 * The emulator's observed mode sends it, as the real product does: refresh then sees drift. Only
 * the refresh differs between the modes, so only that runs in both.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenatedUpperCase as hyphenated } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const ZONE = "0a000000000000000000000000000001";
const WS1 = "3d000000000000000000000000000001";
const WS2 = "3d000000000000000000000000000002";
const UNKNOWN_SERVER = "3dffffffffffffffffffffffffffffff";

const SEED = {
  zones: [{ zone_id: ZONE, zone_name: "default" }],
  servers: [
    { server_id: WS1, hostname: "ws1.example.com" },
    { server_id: WS2, hostname: "ws2.example.com" },
  ],
};

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator(SEED);
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** The server's draining flag in the emulator's store (the wire shows it only in observed mode); undefined once it is gone. */
async function draining(id: string, on: TestEmulator = emulator): Promise<boolean | undefined> {
  return (await on.state()).servers[id]?.is_draining;
}

/** How many warnings a host printed about not seeing a server's draining flag. */
function blindWarnings(on: ProviderHost, id: string): number {
  return on.stderr
    .join("")
    .split("\n")
    .filter((line) => line.startsWith("warning:") && line.includes(id) && line.includes("is_draining")).length;
}

describe("ServerDrain", () => {
  it("check refuses bad input, naming the property, before any request, and writes the default", async () => {
    const drain = new Driven(host, "ServerDrain", "bad");
    const before = emulator.requests.length;
    const { failures } = await drain.check({ serverId: "ws1", draining: "yes", colour: "blue" });
    expect(failures.map((f) => f.property).sort()).toEqual(["(inputs)", "draining", "serverId"]);
    expect(failures.find((f) => f.property === "serverId")?.reason).toMatch(/Kasm id/);
    expect((await drain.check({})).failures.map((f) => f.property)).toEqual(["serverId"]);

    const ok = await drain.check({ serverId: WS1 });
    expect(ok.failures).toEqual([]);
    expect(ok.inputs).toMatchObject({ serverId: WS1, draining: true });
    expect(emulator.requests.length).toBe(before);
  });

  it("drains, plans no change for the same inputs, updates in place, keeps the declared value on refresh and restores on destroy", async () => {
    const drain = new Driven(host, "ServerDrain", "ws1");
    const inputs = { serverId: WS1 };
    const state = await drain.create(inputs);
    expect(drain.id).toBe(WS1);
    expect(state).toMatchObject({ serverId: WS1, draining: true });
    expect(await draining(WS1)).toBe(true);

    // A second up: no change, whatever the form of the id (check writes the default again).
    const checked = (await drain.check(inputs)).inputs;
    expect(await drain.diff(checked)).toMatchObject({ changes: "none", replaces: [] });
    expect(await drain.diff({ serverId: hyphenated(WS1), draining: true })).toMatchObject({ changes: "none" });

    // Back in service, in place.
    expect(await drain.diff({ serverId: WS1, draining: false })).toMatchObject({ changes: "some", replaces: [] });
    await drain.update({ serverId: WS1, draining: false });
    expect(await draining(WS1)).toBe(false);
    await drain.update({ serverId: WS1, draining: true });
    expect(await draining(WS1)).toBe(true);

    // Someone ends the drain in the Kasm UI. A record without is_draining cannot show it: refresh
    // keeps the declared value (the warning: below; a Kasm that sends the flag: observed mode, below).
    await emulator.specCall("set_drain_server", { target_server: { server_id: WS1, is_draining: false } });
    expect(await drain.read()).toMatchObject({ id: WS1, inputs: { serverId: WS1, draining: true } });
    expect(await drain.diff(checked)).toMatchObject({ changes: "none" });
    await drain.update({ serverId: WS1, draining: true });
    expect(await draining(WS1)).toBe(true);

    await drain.delete();
    expect(await draining(WS1)).toBe(false);
  });

  it("another server replaces: the new one drains, then the old one is restored", async () => {
    const old = new Driven(host, "ServerDrain", "moving");
    await old.create({ serverId: WS1, draining: true });
    expect(await old.diff({ serverId: WS2, draining: true })).toMatchObject({ changes: "some", replaces: ["serverId"] });

    // What the engine does for a replacement (create before delete).
    const next = new Driven(host, "ServerDrain", "moving");
    await next.create({ serverId: WS2, draining: true });
    await old.delete();
    expect(await draining(WS2)).toBe(true);
    expect(await draining(WS1)).toBe(false);
    await next.delete();
    expect(await draining(WS2)).toBe(false);
  });

  it("an unknown server is an error that says so", async () => {
    const drain = new Driven(host, "ServerDrain", "unknown");
    await expect(drain.create({ serverId: UNKNOWN_SERVER })).rejects.toThrow(new RegExp(`Server ${UNKNOWN_SERVER} does not exist in Kasm`));
  });

  it("drains an agent running a staged session nobody holds yet, and reads it back", async () => {
    // Kasm lists such a session in the server record with the user `{username: "", user_id: ""}`
    // (the 1.15 API server's get_servers); the emulator places it on the zone's first server, ws1.
    const agent = await startTestEmulator({ ...SEED, images: [{ name: "kasmweb/chrome:1.16.0" }], sessions: [{ image_name: "kasmweb/chrome:1.16.0" }] });
    const agentHost = await hostFor(agent);
    try {
      const drain = new Driven(agentHost, "ServerDrain", "agent");
      expect(await drain.create({ serverId: WS1 })).toMatchObject({ serverId: WS1, draining: true });
      expect(await draining(WS1, agent)).toBe(true);
      expect((await drain.read()).id).toBe(WS1);
    } finally {
      await agentHost.stop();
      await agent.close();
    }
  });

  it("refresh after the server was removed from Kasm drops the resource, and destroy succeeds", async () => {
    // Kasm's API cannot remove a server: remove it from a persisted emulator's data between two runs.
    const dir = mkdtempSync(path.join(tmpdir(), "kasm-drain-"));
    const dataFile = path.join(dir, "data.json");
    let first: TestEmulator | undefined;
    let second: TestEmulator | undefined;
    let firstHost: ProviderHost | undefined;
    let secondHost: ProviderHost | undefined;
    try {
      first = await startTestEmulator(SEED, { dataFile });
      firstHost = await hostFor(first);
      const drain = new Driven(firstHost, "ServerDrain", "removed");
      await drain.create({ serverId: WS2 });
      expect(await draining(WS2, first)).toBe(true);
      // Stop each once: a second stop of a host would wait for an exit that already happened.
      await firstHost.stop();
      firstHost = undefined;
      await first.close();
      first = undefined;

      const data = JSON.parse(readFileSync(dataFile, "utf8"));
      delete data.servers[WS2];
      writeFileSync(dataFile, JSON.stringify(data));
      second = await startTestEmulator({}, { dataFile });
      secondHost = await hostFor(second);
      const later = new Driven(secondHost, "ServerDrain", "removed");
      later.id = drain.id;
      later.state = drain.state;
      expect(await draining(WS2, second)).toBeUndefined();
      expect((await later.read()).id).toBe("");
      await later.delete();
    } finally {
      await firstHost?.stop();
      await secondHost?.stop();
      await first?.close();
      await second?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("ServerDrain against a Kasm whose server record has no draining flag (the spec's fields only)", () => {
  let plain: TestEmulator;
  let plainHost: ProviderHost;

  beforeAll(async () => {
    plain = await startTestEmulator(SEED, { observedFields: false });
    plainHost = await hostFor(plain);
  });
  afterAll(async () => {
    await plainHost?.stop();
    await plain?.close();
  });

  /** The flag as the emulator holds it: its API does not show it in this mode. */
  async function held(id: string): Promise<boolean> {
    return (await plain.state()).servers[id].is_draining;
  }

  /** How many times the host has warned that drift cannot be seen, for this server. */
  function warnings(id: string): number {
    return plainHost.stderr.join("").split(`ServerDrain ${id}: Kasm's server record does not include the draining flag`).length - 1;
  }

  it("refresh keeps the declared value (no false drift) and warns once per resource and refresh that drift cannot be seen", async () => {
    const res = await plain.specCall("get_servers", { target_server: { server_id: WS1 } });
    expect(res.body.server).not.toHaveProperty("is_draining");

    const drain = new Driven(plainHost, "ServerDrain", "plain-ws1");
    const checked = (await drain.check({ serverId: WS1 })).inputs;
    await drain.create(checked);
    expect(await held(WS1)).toBe(true);

    // Someone ends the drain in the Kasm UI: refresh cannot see it, keeps the declared value, and says so.
    await plain.specCall("set_drain_server", { target_server: { server_id: WS1, is_draining: false } });
    const refreshed = await drain.read();
    expect(refreshed).toMatchObject({ id: WS1, inputs: { serverId: WS1, draining: true } });
    expect(await drain.diff(checked)).toMatchObject({ changes: "none", replaces: [] });
    await vi.waitFor(() => expect(warnings(WS1)).toBe(1), { timeout: 10_000 });
    expect(plainHost.stderr.join("")).toMatch(/cannot see whether the server is still draining; the declared value is kept/);

    // The next refresh says it again, once; a declared `false` is kept and named the same way.
    await drain.update({ serverId: WS1, draining: false });
    expect(await held(WS1)).toBe(false);
    expect((await drain.read()).inputs).toMatchObject({ draining: false });
    await vi.waitFor(() => expect(warnings(WS1)).toBe(2), { timeout: 10_000 });
    expect(plainHost.stderr.join("")).toMatch(/cannot see whether the server is still not draining/);

    await drain.delete();
    expect(await held(WS1)).toBe(false);
    expect(warnings(WS1)).toBe(2);
  });
});

describe("ServerDrain against a Kasm that sends is_draining (the emulator's observed mode)", () => {
  let observed: TestEmulator;
  let observedHost: ProviderHost;
  beforeAll(async () => {
    observed = await startTestEmulator(SEED, { observedFields: true });
    observedHost = await hostFor(observed);
  });
  afterAll(async () => {
    await observedHost?.stop();
    await observed?.close();
  });

  it("refresh sees a drain ended in the Kasm UI, without a warning, and the next up drains again", async () => {
    const drain = new Driven(observedHost, "ServerDrain", "observed");
    const inputs = (await drain.check({ serverId: WS2 })).inputs;
    await drain.create(inputs);
    expect(await draining(WS2, observed)).toBe(true);
    expect((await drain.read()).inputs).toMatchObject({ serverId: WS2, draining: true });

    await observed.specCall("set_drain_server", { target_server: { server_id: WS2, is_draining: false } });
    expect(await drain.read()).toMatchObject({ id: WS2, inputs: { serverId: WS2, draining: false } });
    expect(await drain.diff(inputs)).toMatchObject({ changes: "some", replaces: [] });
    await drain.update(inputs);
    expect(await draining(WS2, observed)).toBe(true);
    expect((await drain.read()).inputs).toMatchObject({ draining: true });
    expect(await drain.diff(inputs)).toMatchObject({ changes: "none" });
    expect(blindWarnings(observedHost, WS2)).toBe(0);

    await drain.delete();
    expect(await draining(WS2, observed)).toBe(false);
  });
});
