/**
 * Two product facts settled from public sources after a report about a third-party Terraform
 * client (emulator/README.md, "Two facts settled from the sources"; CONSTRAINTS.md):
 *
 * - a cast config without expiry is one whose `valid_until` is null or left out; `""` is refused
 *   in both modes (the spec's time format; the product stores the value in a timestamp column and
 *   its admin UI sends null; the client leaves the field out, it never sends `""`);
 * - the product's `get_users_group` reads `target_group`; a body with only `target_user` gets the
 *   HTTP 200 "missing parameters" refusal, and a `target_user` beside `target_group` is ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, wire } from "../helpers/emulator";

const CHROME = "1b000000000000000000000000000001";
const ENGINEERING = "e0000000000000000000000000000001";
const ALICE = "a1000000000000000000000000000001";
const BOB = "b0000000000000000000000000000002";

const SEED = {
  zones: [{ zone_name: "default" }],
  images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
  groups: [{ group_id: ENGINEERING, name: "Engineering" }],
  users: [
    { user_id: ALICE, username: "alice", groups: ["Engineering"] },
    { user_id: BOB, username: "bob" },
  ],
};

let product: TestEmulator;
let spec: TestEmulator;
beforeAll(async () => {
  product = await startTestEmulator(SEED, { apiNames: "product" });
  spec = await startTestEmulator(SEED, { apiNames: "spec" });
});
afterAll(async () => {
  await product?.close();
  await spec?.close();
});

const EMPTY_VALID_UNTIL = {
  error_message:
    "Invalid Request: valid_until (\"\") must be a UTC time written 'YYYY-MM-DD HH:MM:SS', such as 2031-12-31 23:59:59; " +
    "for a link that never expires send null or leave valid_until out",
};

describe("cast config valid_until and no expiry", () => {
  it.each(["product", "spec"] as const)('%s mode refuses valid_until "" on create with a 400 naming the way out, and stores nothing', async (mode) => {
    const emulator = mode === "product" ? product : spec;
    const res = await emulator.call("create_cast_config", { target_cast_config: { key: `empty-${mode}`, image_id: CHROME, valid_until: "" } });
    expect(wire(res)).toEqual({ status: 400, body: EMPTY_VALID_UNTIL });
    const keys = Object.values((await emulator.state()).castConfigs).map((c: any) => c.key);
    expect(keys).not.toContain(`empty-${mode}`);
  });

  it("product mode: a config sent as the client sends it without expiry (no valid_until) has none, read back as null", async () => {
    const created = await product.call("create_cast_config", { target_cast_config: { casting_config_name: "Kiosk", key: "kiosk", image_id: CHROME } });
    expect(created.status).toBe(200);
    expect(created.body.cast_config.valid_until).toBeNull();
    const read = await product.call("get_cast_config", { cast_config_id: created.body.cast_config.cast_config_id });
    expect(read.status).toBe(200);
    expect(read.body.cast_config.valid_until).toBeNull();
  });

  it('product mode: null is no expiry too; an update to "" is refused and keeps the time', async () => {
    const created = await product.call("create_cast_config", {
      target_cast_config: { casting_config_name: "Lobby", key: "lobby", image_id: CHROME, valid_until: null },
    });
    expect(created.status).toBe(200);
    expect(created.body.cast_config.valid_until).toBeNull();
    const id = created.body.cast_config.cast_config_id;
    const timed = await product.call("update_cast_config", { target_cast_config: { cast_config_id: id, valid_until: "2031-12-31 23:59:59" } });
    expect(timed.body.cast_config.valid_until).toBe("2031-12-31 23:59:59");
    const refused = await product.call("update_cast_config", { target_cast_config: { cast_config_id: id, valid_until: "" } });
    expect(wire(refused)).toEqual({ status: 400, body: EMPTY_VALID_UNTIL });
    const read = await product.call("get_cast_config", { cast_config_id: id });
    expect(read.body.cast_config.valid_until).toBe("2031-12-31 23:59:59");
  });
});

describe("get_users_group reads target_group (product mode)", () => {
  it("a body with only target_user, as the client's GetUsersGroup sends it, gets the HTTP 200 missing-parameters refusal", async () => {
    const res = await product.call("get_users_group", { target_user: { user_id: ALICE } });
    expect(wire(res)).toEqual({ status: 200, body: { error_message: "Invalid Request: Missing required parameters" } });
  });

  it("target_group lists the group's members; a target_user beside it changes nothing", async () => {
    const members = { status: 200, body: { users: [{ name: "alice", user_id: ALICE }], total: 1 } };
    expect(wire(await product.call("get_users_group", { target_group: { group_id: ENGINEERING } }))).toEqual(members);
    expect(wire(await product.call("get_users_group", { target_group: { group_id: ENGINEERING }, target_user: { user_id: BOB } }))).toEqual(members);
  });
});
