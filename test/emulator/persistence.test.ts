/**
 * Persistence with `dataFile`: what an emulator acknowledged survives a restart from the same file
 * (the seed is then ignored), a refused request changes nothing on disk, and the file is whole
 * JSON after every acknowledged change. Also the seed's own validation: a seed that cannot be used
 * is refused with a SeedError naming the entry.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SeedError, type SeedInput } from "../../emulator/seed";
import { startEmulator } from "../../emulator/server";
import { seedWithAdmin, startTestEmulator, type TestEmulator } from "../helpers/emulator";

const ZONE = "0a000000000000000000000000000001";
const CHROME = "1b000000000000000000000000000001";

const SEED: SeedInput = {
  zones: [{ zone_id: ZONE, zone_name: "default" }],
  images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
  users: [{ username: "seeded" }],
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "kasm-emulator-persistence-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const running: TestEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

async function start(seed: SeedInput, dataFile: string): Promise<TestEmulator> {
  const emulator = await startTestEmulator(seed, { dataFile });
  running.push(emulator);
  return emulator;
}

async function stop(emulator: TestEmulator): Promise<void> {
  running.splice(running.indexOf(emulator), 1);
  await emulator.close();
}

/** The data file, parsed; fails the test if it is not whole JSON. */
function onDisk(file: string): any {
  const text = readFileSync(file, "utf8");
  expect(() => JSON.parse(text), `${file} is not valid JSON`).not.toThrow();
  return JSON.parse(text);
}

const usernamesIn = (state: any): string[] =>
  Object.values(state.users as Record<string, { username: string }>)
    .map((u) => u.username)
    .sort();

describe("persistence", () => {
  it("writes the seeded state to the data file at start", async () => {
    const file = join(dir, "start.json");
    const emulator = await start(SEED, file);
    const disk = onDisk(file);
    expect(usernamesIn(disk)).toEqual(["seeded"]);
    expect(disk).toEqual(await emulator.state());
  });

  it("keeps acknowledged changes across close and restart from the same file, ignoring the seed then", async () => {
    const file = join(dir, "restart.json");
    const first = await start(SEED, file);
    const user = await first.call("create_user", { target_user: { username: "persisted", first_name: "Per" } });
    expect(user.status).toBe(200);
    const staging = await first.call("create_staging_config", {
      target_staging_config: { zone_id: ZONE, image_id: CHROME, num_sessions: 2, expiration: 3 },
    });
    expect(staging.status).toBe(200);
    const provider = await first.call("create_egress_provider", {
      target_egress_provider: { name: "Mullvad", egress_provider_type: "wireguard", enabled: true },
    });
    expect(provider.status).toBe(200);
    const before = await first.state();
    await stop(first);

    // A different seed: ignored, because the data file exists.
    const second = await start({ users: [{ username: "from-the-new-seed" }], zones: [{ zone_name: "elsewhere" }] }, file);
    expect(await second.state()).toEqual(before);
    const read = await second.call("get_user", { target_user: { user_id: user.body.user.user_id } });
    expect(read.status).toBe(200);
    expect(read.body.user).toMatchObject({ username: "persisted", first_name: "Per" });
    const configs = await second.call("get_staging_configs");
    expect(configs.body.staging_configs).toEqual([staging.body.staging_config]);
    const zones = await second.call("get_zones", { brief: true });
    expect(zones.body.zones.map((z: { zone_name: string }) => z.zone_name)).toEqual(["default"]);
    const users = await second.call("get_users", {});
    expect(users.body.users.map((u: { username: string }) => u.username).sort()).toEqual(["persisted", "seeded"]);

    // The restarted emulator keeps persisting: a change made now survives another restart.
    const del = await second.call("delete_egress_provider", {
      target_egress_provider: { egress_provider_id: provider.body.egress_provider.egress_provider_id },
    });
    expect(del.status).toBe(200);
    await stop(second);
    const third = await start(SEED, file);
    expect((await third.call("get_egress_providers")).body.egress_providers).toEqual([]);
    expect(usernamesIn(await third.state())).toEqual(["persisted", "seeded"]);
  });

  it("changes nothing on disk for a refused request", async () => {
    const file = join(dir, "refused.json");
    const emulator = await start(SEED, file);
    const before = readFileSync(file);
    const refusals = [
      await emulator.call("create_user", { target_user: { username: "seeded" } }),
      await emulator.call("create_staging_config", { target_staging_config: { zone_id: ZONE, image_id: CHROME } }),
      await emulator.call("update_cast_config", { target_cast_config: { cast_config_id: "ffffffffffffffffffffffffffffffff" } }),
      await emulator.call("create_user", { target_user: { username: "nope" } }, { key: "admin-key", secret: "wrong" }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 400, 401]);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("leaves no trace of a refused request in what is persisted by the next acknowledged change", async () => {
    const file = join(dir, "refused-then-accepted.json");
    const emulator = await start(SEED, file);
    const created = await emulator.call("create_staging_config", {
      target_staging_config: { zone_id: ZONE, image_id: CHROME, num_sessions: 1, expiration: 1 },
    });
    const id = created.body.staging_config.staging_config_id;
    // Refused: the image does not exist. num_sessions must not change either.
    const refused = await emulator.call("update_staging_config", {
      target_staging_config: { staging_config_id: id, image_id: "ffffffffffffffffffffffffffffffff", num_sessions: 9 },
    });
    expect(refused.status).toBe(400);
    expect(onDisk(file).stagingConfigs[id].num_sessions).toBe(1);
    const accepted = await emulator.call("create_user", { target_user: { username: "later" } });
    expect(accepted.status).toBe(200);
    const disk = onDisk(file);
    expect(disk.stagingConfigs[id].num_sessions).toBe(1);
    expect(disk.stagingConfigs[id].image_id).toBe(CHROME);
    expect(usernamesIn(disk)).toEqual(["later", "seeded"]);
  });

  it("leaves valid JSON holding the change after every acknowledged change", async () => {
    const file = join(dir, "every-change.json");
    const emulator = await start(SEED, file);
    const steps: [string, () => Promise<unknown>, (disk: any) => void][] = [];
    let userId = "";
    let castId = "";
    steps.push([
      "create_user",
      async () => {
        const res = await emulator.call("create_user", { target_user: { username: "step" } });
        userId = res.body.user.user_id;
        return res;
      },
      (disk) => expect(disk.users[userId].username).toBe("step"),
    ]);
    steps.push([
      "update_user",
      () => emulator.call("update_user", { target_user: { user_id: userId, username: "step", locked: true } }),
      (disk) => expect(disk.users[userId].locked).toBe(true),
    ]);
    steps.push([
      "create_cast_config",
      async () => {
        const res = await emulator.call("create_cast_config", { target_cast_config: { key: "k1", casting_config_name: "K1" } });
        castId = res.body.cast_config.cast_config_id;
        return res;
      },
      (disk) => expect(disk.castConfigs[castId].key).toBe("k1"),
    ]);
    steps.push([
      "delete_cast_config",
      () => emulator.call("delete_cast_config", { cast_config_id: castId }),
      (disk) => expect(disk.castConfigs[castId]).toBeUndefined(),
    ]);
    steps.push([
      "delete_user",
      () => emulator.call("delete_user", { target_user: { user_id: userId }, force: true }),
      (disk) => expect(disk.users[userId]).toBeUndefined(),
    ]);
    for (const [name, act, check] of steps) {
      const res = (await act()) as { status: number };
      expect(res.status, name).toBe(200);
      const disk = onDisk(file);
      check(disk);
      expect(disk, name).toEqual(await emulator.state());
    }
  });

  it("persists a change whose response was failed by a fault after it committed, and nothing for a fault before", async () => {
    const file = join(dir, "faults.json");
    const emulator = await start(SEED, file);
    const faults = (config: Record<string, unknown>) =>
      emulator.raw("POST", "/__emulator/faults", { body: JSON.stringify(config), headers: { "content-type": "application/json" } });
    expect((await faults({ rate: 1, kinds: ["500"], phase: "after" })).status).toBe(200);
    expect((await emulator.call("create_user", { target_user: { username: "committed" } })).status).toBe(500);
    expect((await faults({ rate: 1, kinds: ["500"], phase: "before" })).status).toBe(200);
    expect((await emulator.call("create_user", { target_user: { username: "never" } })).status).toBe(500);
    await emulator.raw("DELETE", "/__emulator/faults");
    expect(usernamesIn(onDisk(file))).toEqual(["committed", "seeded"]);
  });

  it("persists a batch import made through multipart", async () => {
    const file = join(dir, "batch.json");
    const emulator = await start(SEED, file);
    const boundary = "----persist-batch";
    const res = await emulator.raw("POST", "/api/public/batch_create_user", {
      body: `--${boundary}\r\nContent-Disposition: form-data; name="file_content"; filename="u.csv"\r\n\r\nusername\nimported\r\n--${boundary}--\r\n`,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "api-key": "admin-key", "api-key-secret": "admin-secret" },
    });
    expect(res.status).toBe(200);
    expect(usernamesIn(onDisk(file))).toEqual(["imported", "seeded"]);
  });
});

describe("seed validation", () => {
  /** Start an emulator from `seed` (plus the admin key) and return the error it is refused with. */
  async function refusal(seed: SeedInput): Promise<Error> {
    try {
      const emulator = await startEmulator({ port: 0, seed: seedWithAdmin(seed) });
      await emulator.close();
    } catch (error) {
      return error as Error;
    }
    throw new Error("the seed was accepted");
  }

  it("refuses an unknown field, naming the entry and the field", async () => {
    const error = await refusal({ users: [{ username: "ok" }, { username: "typo", frist_name: "Ty" } as never] });
    expect(error).toBeInstanceOf(SeedError);
    expect(error.message).toMatch(/users\W+1/);
    expect(error.message).toContain("frist_name");
  });

  it("refuses an unknown field at the top level", async () => {
    const error = await refusal({ usres: [] } as never);
    expect(error).toBeInstanceOf(SeedError);
    expect(error.message).toContain("usres");
  });

  it("refuses an unknown permission name, naming the key entry and the permission", async () => {
    const error = await refusal({ apiKeys: [{ name: "ops", key: "ops-key", secret: "s", permissions: ["Users View", "Users Teleport"] }] });
    expect(error).toBeInstanceOf(SeedError);
    // The admin key is apiKeys[0]; the refused one is apiKeys[1].
    expect(error.message).toMatch(/apiKeys\W+1/);
    expect(error.message).toContain("Users Teleport");
  });

  it("refuses a user in a group that does not exist, naming the user entry and the group", async () => {
    const error = await refusal({ groups: [{ name: "Engineering" }], users: [{ username: "ann", groups: ["Engineering", "Marketing"] }] });
    expect(error).toBeInstanceOf(SeedError);
    expect(error.message).toMatch(/users\W+0/);
    expect(error.message).toContain("Marketing");
  });

  it("refuses a duplicate username (case-insensitively), naming it", async () => {
    const error = await refusal({ users: [{ username: "ann" }, { username: "bob" }, { username: "Ann" }] });
    expect(error).toBeInstanceOf(SeedError);
    expect(error.message).toContain("users");
    expect(error.message).toContain("ann");
  });

  it("refuses a seed file that is not JSON, naming the file", async () => {
    const file = join(dir, "broken-seed.json");
    writeFileSync(file, "{ not json");
    const error = await startEmulator({ port: 0, seed: file }).then(
      async (e) => {
        await e.close();
        throw new Error("accepted");
      },
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(SeedError);
    expect(error.message).toContain(file);
  });

  it("does not leave a data file behind for a refused seed", async () => {
    const file = join(dir, "never.json");
    await expect(startEmulator({ port: 0, seed: { users: [{ username: "x", colour: "red" }] } as never, dataFile: file })).rejects.toBeInstanceOf(SeedError);
    expect(() => readFileSync(file)).toThrow();
  });

  it("writes nothing when the port is taken, so a second emulator cannot touch the first one's data", async () => {
    const first = await start(SEED, join(dir, "first.json"));
    const file = join(dir, "second.json");
    await expect(startEmulator({ port: Number(new URL(first.url).port), seed: SEED, dataFile: file })).rejects.toMatchObject({ code: "EADDRINUSE" });
    expect(() => readFileSync(file)).toThrow();
  });
});
