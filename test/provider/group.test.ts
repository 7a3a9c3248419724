/**
 * Group through Pulumi's real dynamic-provider host against the emulator. With `kasm:apiNames
 * product` (the product project of the suite): create, a no-change plan, rename and priority in
 * place, refresh after a change and a deletion in Kasm, adoption by name, and deletion with and
 * without members. With `spec`: check refuses the kind before any request, naming the setting.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";
import { TEST_API_NAMES } from "../helpers/vocabulary";

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({ users: [{ username: "mia" }] });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** The group with this id as Kasm lists it, or undefined. */
async function groupInKasm(id: string) {
  const res = await emulator.specCall("get_groups");
  expect(res.status).toBe(200);
  return (res.body.groups ?? []).find((g: { group_id: string }) => g.group_id.replace(/-/g, "") === id.replace(/-/g, ""));
}

describe.runIf(TEST_API_NAMES === "product")("Group, against a released Kasm", () => {
  it("check refuses a priority Kasm would refuse, naming the bounds, before any request", async () => {
    const before = emulator.requests.length;
    const { failures } = await new Driven(host, "Group", "bad").check({ name: " ", priority: 5000 });
    expect(failures.map((f) => f.property).sort()).toEqual(["name", "priority"]);
    expect(failures.find((f) => f.property === "priority")?.reason).toMatch(/between 1 and 4095/);
    expect(emulator.requests.length).toBe(before);
  });

  it("creates, plans no change, renames and changes the priority in place, refreshes drift and deletes", async () => {
    const group = new Driven(host, "Group", "support");
    await group.create({ name: "Support", priority: 50, description: "First line" });
    expect(group.id).toMatch(/^[0-9a-f]{32}$/);
    expect(await groupInKasm(group.id)).toMatchObject({ name: "Support", priority: 50, description: "First line" });
    // Its metadata is {}, as the Kasm UI creates a group: 1.15 stores null for a create sent none.
    expect((await emulator.state()).groups[group.id].group_metadata).toEqual({});
    expect((await group.diff({ name: "Support", priority: 50, description: "First line" })).changes).toBe("none");

    await group.update({ name: "Support L1", priority: 40, description: "First line" });
    expect(await groupInKasm(group.id)).toMatchObject({ name: "Support L1", priority: 40 });

    // Someone changes the priority in the Kasm UI: refresh shows it, the next update puts it back.
    expect((await emulator.specCall("update_group", { target_group: { group_id: group.id, priority: 7 } })).status).toBe(200);
    expect((await group.read()).inputs).toMatchObject({ priority: 7 });
    await group.update({ name: "Support L1", priority: 40, description: "First line" });
    expect((await groupInKasm(group.id)).priority).toBe(40);

    await group.delete();
    expect(await groupInKasm(group.id)).toBeUndefined();
  });

  it("a group left without a priority gets Kasm's default, and keeps one set in Kasm later", async () => {
    const group = new Driven(host, "Group", "plain");
    await group.create({ name: "Plain" });
    expect((await groupInKasm(group.id)).priority).toBe(4095);
    await emulator.specCall("update_group", { target_group: { group_id: group.id, priority: 12 } });
    await group.update({ name: "Plain", description: "now described" });
    expect(await groupInKasm(group.id)).toMatchObject({ priority: 12, description: "now described" });
    await group.delete();
  });

  it("an existing name is an error that suggests adopt; adopt takes the group over", async () => {
    const made = await emulator.specCall("create_group", { target_group: { name: "Contractors", priority: 30 } });
    expect(made.status).toBe(200);
    const existingId = made.body.group.group_id;
    await expect(new Driven(host, "Group", "dup").create({ name: "Contractors" })).rejects.toThrow(/Group 'Contractors' already exists.*adopt: true/s);
    const adopted = new Driven(host, "Group", "contractors");
    await adopted.create({ name: "Contractors", description: "External staff", adopt: true });
    expect(adopted.id).toBe(existingId);
    // Adoption keeps what the program does not declare.
    expect(await groupInKasm(existingId)).toMatchObject({ priority: 30, description: "External staff" });
    await adopted.delete();
  });

  it("a group with members is deleted only with forceDelete, with advice; a group deleted in Kasm is gone on refresh", async () => {
    const group = new Driven(host, "Group", "members");
    await group.create({ name: "Members" });
    const userId = await emulator.userId("mia");
    expect((await emulator.specCall("add_user_group", { target_user: { user_id: userId }, target_group: { group_id: group.id } })).status).toBe(200);
    await expect(group.delete()).rejects.toThrow(/still has members.*forceDelete: true/s);
    expect(await groupInKasm(group.id)).toBeDefined();
    group.state = { ...group.state, forceDelete: true };
    await group.delete();
    expect(await groupInKasm(group.id)).toBeUndefined();

    const gone = new Driven(host, "Group", "gone");
    await gone.create({ name: "Gone soon" });
    await emulator.specCall("delete_group", { target_group: { group_id: gone.id } });
    expect((await gone.read()).id).toBe("");
  });
});

describe.runIf(TEST_API_NAMES === "spec")("Group, with the API documentation's vocabulary", () => {
  it("check refuses it before any request, naming kasm:apiNames and how to switch", async () => {
    const before = emulator.requests.length;
    const { failures } = await new Driven(host, "Group", "support").check({ name: "Support" });
    expect(failures).toHaveLength(1);
    expect(failures[0].reason).toContain('kasm:apiNames is "spec"');
    expect(failures[0].reason).toContain("pulumi config set kasm:apiNames product");
    expect(emulator.requests.length).toBe(before);
  });
});
