/**
 * StagingConfig through Pulumi's real dynamic-provider host against the emulator: check, create,
 * diff (ids in either form), in-place updates (the zone and image included), refresh after drift
 * and after deletion, adoption by (zone, image), and deletion.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenatedUpperCase as hyphenated } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";
import { TEST_API_NAMES } from "../helpers/vocabulary";

const ZONE = "0a000000000000000000000000000001";
const OTHER_ZONE = "0a000000000000000000000000000002";
const CHROME = "1b000000000000000000000000000001";
const TERMINAL = "1b000000000000000000000000000002";
const FIREFOX = "1b000000000000000000000000000003";

// A released Kasm's update sets the config's server pool and autoscale config to what it is sent,
// null when left out (the 1.15 API server's update_staging_config): the provider sends the current ones.
describe.runIf(TEST_API_NAMES === "product")(
  "StagingConfig against a released Kasm, which clears the server pool and autoscale config an update leaves out",
  () => {
    const POOL = "5f000000000000000000000000000001";
    const AUTOSCALE = "6f000000000000000000000000000001";
    const STAGED = "57000000000000000000000000000009";
    let pooled: TestEmulator;
    let pooledHost: ProviderHost;

    beforeAll(async () => {
      pooled = await startTestEmulator({
        zones: [{ zone_id: ZONE, zone_name: "default" }],
        images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
        serverPools: [{ server_pool_id: POOL, server_pool_name: "gpu-pool" }],
        stagingConfigs: [{ staging_config_id: STAGED, image_name: "kasmweb/chrome:1.16.0", num_sessions: 2, expiration: 1, server_pool_name: "gpu-pool" }],
      });
      // The autoscale config, set as the Kasm UI sets it (the emulator keeps no autoscale configs of its own).
      const set = await pooled.call("update_staging_config", {
        target_staging_config: { staging_config_id: STAGED, server_pool_id: POOL, autoscale_config_id: AUTOSCALE },
      });
      expect(set.status).toBe(200);
      pooledHost = await hostFor(pooled);
    });
    afterAll(async () => {
      await pooledHost?.stop();
      await pooled?.close();
    });

    it("adoption and a later update keep the pool and the autoscale config set in the Kasm UI", async () => {
      const inKasm = async () => (await pooled.state()).stagingConfigs[STAGED];
      expect(await inKasm()).toMatchObject({ server_pool_id: POOL, autoscale_config_id: AUTOSCALE });
      const staging = new Driven(pooledHost, "StagingConfig", "chrome");
      const inputs = { zoneId: ZONE, imageId: CHROME, numSessions: 3, expiration: 1, adopt: true };
      await staging.create(inputs);
      expect(staging.id).toBe(STAGED);
      expect(await inKasm()).toMatchObject({ num_sessions: 3, server_pool_id: POOL, autoscale_config_id: AUTOSCALE });
      await staging.update({ ...inputs, numSessions: 4 });
      expect(await inKasm()).toMatchObject({ num_sessions: 4, server_pool_id: POOL, autoscale_config_id: AUTOSCALE });
    });
  },
);

/** The hyphenated, upper-case UUID form of a 32-hex id. */
let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({
    zones: [
      { zone_id: ZONE, zone_name: "default" },
      { zone_id: OTHER_ZONE, zone_name: "eu-west" },
    ],
    images: [
      { image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" },
      { image_id: TERMINAL, name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" },
      { image_id: FIREFOX, name: "kasmweb/firefox:1.16.0", friendly_name: "Firefox" },
    ],
  });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

async function configInKasm(id: string) {
  const res = await emulator.specCall("get_staging_config", { target_staging_config: { staging_config_id: id } });
  return res.status === 200 ? res.body.staging_config : undefined;
}

describe("StagingConfig", () => {
  it("check refuses bad input, naming the property, before any request", async () => {
    const staging = new Driven(host, "StagingConfig", "bad");
    const before = emulator.requests.length;
    const { failures } = await staging.check({ zoneId: "zone-1", numSessions: -1, expiration: -2, allowWsAudio: "yes", colour: "blue" });
    expect(failures.map((f) => f.property).sort()).toEqual(["(inputs)", "allowWsAudio", "expiration", "imageId", "numSessions", "zoneId"].sort());
    expect(failures.find((f) => f.property === "zoneId")?.reason).toMatch(/Kasm id/);
    expect(failures.find((f) => f.property === "numSessions")?.reason).toMatch(/0 or more/);
    expect(failures.find((f) => f.property === "expiration")?.reason).toMatch(/more than 0 hours/);
    expect(failures.find((f) => f.property === "(inputs)")?.reason).toMatch(/colour/);
    expect((await staging.check({ zoneId: ZONE, imageId: CHROME, numSessions: 1, expiration: 0 })).failures).toEqual([
      { property: "expiration", reason: "expiration must be more than 0 hours (fractions such as 0.5 are allowed)" },
    ]);
    // Fractions of an hour are valid: the record is a "number of hours", and the product stores a float.
    expect((await staging.check({ zoneId: ZONE, imageId: CHROME, numSessions: 1, expiration: 0.5 })).failures).toEqual([]);
    expect(emulator.requests.length).toBe(before);
  });

  it("check lets values unknown during preview through", async () => {
    const staging = new Driven(host, "StagingConfig", "preview");
    const { failures } = await staging.check({ zoneId: "04da6b54-80e4-46f7-96ec-b56ff0331ba9", imageId: CHROME, numSessions: 1, expiration: 2 });
    expect(failures).toEqual([]);
  });

  it("creates, plans no change for the same inputs, updates in place (image included), refreshes drift and deletes", async () => {
    const staging = new Driven(host, "StagingConfig", "chrome");
    const inputs = { zoneId: ZONE, imageId: CHROME, numSessions: 2, expiration: 4, allowWsAudio: true, allowWsUploads: false };
    const state = await staging.create(inputs);
    expect(staging.id).toMatch(/^[0-9a-f]{32}$/);
    expect(state).toMatchObject({
      ...inputs,
      stagingConfigId: staging.id,
      zoneName: "default",
      imageFriendlyName: "Chrome",
      numCurrentSessions: 2,
    });
    expect(await configInKasm(staging.id)).toMatchObject({ zone_id: ZONE, image_id: CHROME, num_sessions: 2, expiration: 4, allow_ws_audio: true });

    // A second up with the same program: no change, whatever the form of the ids.
    expect(await staging.diff(inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(await staging.diff({ ...inputs, zoneId: hyphenated(ZONE), imageId: hyphenated(CHROME) })).toMatchObject({ changes: "none" });

    // More sessions and another image: both in place (update_staging_config takes the image).
    const changed = { ...inputs, imageId: TERMINAL, numSessions: 3 };
    expect(await staging.diff(changed)).toMatchObject({ changes: "some", replaces: [] });
    const updated = await staging.update(changed);
    expect(updated).toMatchObject({ imageId: TERMINAL, imageFriendlyName: "Terminal", numSessions: 3, stagingConfigId: staging.id });
    expect(await configInKasm(staging.id)).toMatchObject({ image_id: TERMINAL, num_sessions: 3 });

    // Someone changes it in the Kasm UI: refresh sees it, and the next up reverts it.
    await emulator.specCall("update_staging_config", {
      target_staging_config: { staging_config_id: staging.id, num_sessions: 7, allow_ws_audio: false },
    });
    const refreshed = await staging.read();
    expect(refreshed.id).toBe(staging.id);
    expect(refreshed.inputs).toMatchObject({ numSessions: 7, allowWsAudio: false, imageId: TERMINAL, expiration: 4 });
    // The read-only count moved with it, but it is no input: it never shows as a change.
    expect(refreshed.properties.numCurrentSessions).toBe(7);
    expect(refreshed.inputs).not.toHaveProperty("numCurrentSessions");
    expect(await staging.diff({ ...changed, numSessions: 7, allowWsAudio: false })).toMatchObject({ changes: "none" });
    expect(await staging.diff(changed)).toMatchObject({ changes: "some", replaces: [] });
    await staging.update(changed);
    expect(await configInKasm(staging.id)).toMatchObject({ num_sessions: 3, allow_ws_audio: true });
    expect((await staging.read()).inputs).toMatchObject({ numSessions: 3, allowWsAudio: true });
    expect(await staging.diff(changed)).toMatchObject({ changes: "none" });

    await staging.delete();
    expect(await configInKasm(staging.id)).toBeUndefined();
    // Deleting what is already gone succeeds.
    await staging.delete();
  });

  it("takes fractions of an hour: 0.5 is created, reads back without drift, and updates to 2.25", async () => {
    const staging = new Driven(host, "StagingConfig", "half-hour");
    const inputs = { zoneId: OTHER_ZONE, imageId: FIREFOX, numSessions: 1, expiration: 0.5 };
    await staging.create(inputs);
    expect(await configInKasm(staging.id)).toMatchObject({ expiration: 0.5 });
    expect((await staging.read()).inputs).toMatchObject({ expiration: 0.5 });
    expect((await staging.diff(inputs)).changes).toBe("none");
    await staging.update({ ...inputs, expiration: 2.25 });
    expect(await configInKasm(staging.id)).toMatchObject({ expiration: 2.25 });
    expect((await staging.diff({ ...inputs, expiration: 2.25 })).changes).toBe("none");
    await staging.delete();
  });

  it("refresh of a staging config deleted in the Kasm UI drops it instead of failing", async () => {
    const staging = new Driven(host, "StagingConfig", "gone");
    await staging.create({ zoneId: OTHER_ZONE, imageId: TERMINAL, numSessions: 1, expiration: 1 });
    await emulator.specCall("delete_staging_config", { target_staging_config: { staging_config_id: staging.id } });
    expect((await staging.read()).id).toBe("");
    await staging.delete();
  });

  it("a second StagingConfig of one zone and image fails saying to keep one, not only to adopt", async () => {
    const first = new Driven(host, "StagingConfig", "terminal");
    await first.create({ zoneId: OTHER_ZONE, imageId: TERMINAL, numSessions: 1, expiration: 1 });
    const second = new Driven(host, "StagingConfig", "terminal-again");
    // Found before any create (a released Kasm fails a second config with a server error), and named.
    await expect(second.create({ zoneId: hyphenated(OTHER_ZONE), imageId: TERMINAL, numSessions: 3, expiration: 2 })).rejects.toThrow(
      `already exists in Kasm at ${emulator.url} (staging config ${first.id})`,
    );
    await expect(second.create({ zoneId: OTHER_ZONE, imageId: TERMINAL, numSessions: 3, expiration: 2 })).rejects.toThrow(
      "If another resource declares it (another StagingConfig of this zone and image, in this stack or another), keep only one of them",
    );
    expect(await configInKasm(first.id)).toMatchObject({ num_sessions: 1, expiration: 1 });
    await first.delete();
  });

  it("an existing config for the zone and image is an error that suggests adopt, and adopt takes it over", async () => {
    const existing = await emulator.specCall("create_staging_config", {
      target_staging_config: { zone_id: OTHER_ZONE, image_id: FIREFOX, num_sessions: 9, expiration: 12 },
    });
    expect(existing.status).toBe(200);
    const existingId = existing.body.staging_config.staging_config_id;

    const inputs = { zoneId: OTHER_ZONE, imageId: FIREFOX, numSessions: 1, expiration: 2, allowWsMicrophone: true };
    const clash = new Driven(host, "StagingConfig", "clash");
    await expect(clash.create(inputs)).rejects.toThrow(/StagingConfig for zone .* already exists in Kasm.*adopt: true/s);
    expect(await configInKasm(existingId)).toMatchObject({ num_sessions: 9 });

    const adopted = new Driven(host, "StagingConfig", "adopted");
    await adopted.create({ ...inputs, imageId: hyphenated(FIREFOX), adopt: true });
    expect(adopted.id).toBe(existingId);
    expect(await configInKasm(existingId)).toMatchObject({ num_sessions: 1, expiration: 2, allow_ws_microphone: true });
    expect(await adopted.diff({ ...inputs, imageId: hyphenated(FIREFOX), adopt: true })).toMatchObject({ changes: "none" });

    // adopt with nothing to adopt creates.
    const fresh = new Driven(host, "StagingConfig", "fresh");
    await fresh.create({ zoneId: ZONE, imageId: FIREFOX, numSessions: 0, expiration: 1, adopt: true });
    expect(await configInKasm(fresh.id)).toMatchObject({ zone_id: ZONE, image_id: FIREFOX, num_sessions: 0 });
    await fresh.delete();
    await adopted.delete();
  });
});
