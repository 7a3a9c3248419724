/**
 * Group membership: add_user_group and remove_user_group, with the product's error texts
 * (as observed from real installations, see emulator/README.md) for unknown users and groups, double adds and removals of non-members.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenated, wire } from "../helpers/emulator";

const ALL_USERS = "90000000000000000000000000000001";
const ENGINEERING = "90000000000000000000000000000003";
const SALES = "90000000000000000000000000000004";
const ALICE = "a1000000000000000000000000000001";
const UNKNOWN = "ffffffffffffffffffffffffffffffff";

const membership = (userId: unknown, groupId: unknown) => ({ target_user: { user_id: userId }, target_group: { group_id: groupId } });

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({
    groups: [
      { group_id: ALL_USERS, name: "All Users" },
      { group_id: ENGINEERING, name: "Engineering" },
      { group_id: SALES, name: "Sales" },
    ],
    users: [{ user_id: ALICE, username: "alice" }],
  });
});
afterAll(() => emulator.close());

const groupsOfAlice = async () =>
  (await emulator.call("get_user", { target_user: { user_id: ALICE } })).body.user.groups as { name: string; group_id: string }[];

describe("group membership", () => {
  it("a new user is only in All Users", async () => {
    expect(await groupsOfAlice()).toEqual([{ name: "All Users", group_id: ALL_USERS }]);
  });

  it("add_user_group answers {} and the user is then a member", async () => {
    expect(wire(await emulator.call("add_user_group", membership(ALICE, ENGINEERING)))).toEqual({ status: 200, body: {} });
    expect(await groupsOfAlice()).toEqual([
      { name: "All Users", group_id: ALL_USERS },
      { name: "Engineering", group_id: ENGINEERING },
    ]);
  });

  it("accepts hyphenated user and group ids", async () => {
    expect(wire(await emulator.call("add_user_group", membership(hyphenated(ALICE), hyphenated(SALES))))).toEqual({
      status: 200,
      body: {},
    });
    expect((await groupsOfAlice()).map((g) => g.group_id)).toEqual([ALL_USERS, ENGINEERING, SALES]);
    expect(wire(await emulator.call("remove_user_group", membership(hyphenated(ALICE), hyphenated(SALES))))).toEqual({
      status: 200,
      body: {},
    });
    expect((await groupsOfAlice()).map((g) => g.group_id)).toEqual([ALL_USERS, ENGINEERING]);
  });

  it("adding a member again answers 400 already a member, and changes nothing", async () => {
    const before = await emulator.state();
    expect(wire(await emulator.call("add_user_group", membership(ALICE, ENGINEERING)))).toEqual({
      status: 400,
      body: { error_message: `User (${ALICE}) is already a member of group (${ENGINEERING})` },
    });
    expect(await emulator.state()).toEqual(before);
  });

  it("remove_user_group answers {} and the user is no longer a member", async () => {
    expect(wire(await emulator.call("remove_user_group", membership(ALICE, ENGINEERING)))).toEqual({ status: 200, body: {} });
    expect(await groupsOfAlice()).toEqual([{ name: "All Users", group_id: ALL_USERS }]);
  });

  it("removing a non-member answers 400 not a member, and changes nothing", async () => {
    const before = await emulator.state();
    expect(wire(await emulator.call("remove_user_group", membership(ALICE, ENGINEERING)))).toEqual({
      status: 400,
      body: { error_message: `User (${ALICE}) is not a member of group (${ENGINEERING})` },
    });
    expect(await emulator.state()).toEqual(before);
  });

  it.each(["add_user_group", "remove_user_group"] as const)("%s answers 400 Invalid User ID (<id>) for an unknown user", async (op) => {
    expect(wire(await emulator.call(op, membership(UNKNOWN, ENGINEERING)))).toEqual({
      status: 400,
      body: { error_message: `Invalid User ID (${UNKNOWN})` },
    });
    expect(wire(await emulator.call(op, membership("not-a-uuid", ENGINEERING)))).toEqual({
      status: 400,
      body: { error_message: "Invalid User ID (not-a-uuid)" },
    });
  });

  it.each(["add_user_group", "remove_user_group"] as const)("%s answers 400 Invalid Group ID (<id>) for an unknown group", async (op) => {
    expect(wire(await emulator.call(op, membership(ALICE, UNKNOWN)))).toEqual({
      status: 400,
      body: { error_message: `Invalid Group ID (${UNKNOWN})` },
    });
  });

  it("the membership is visible in the store and in get_users", async () => {
    await emulator.call("add_user_group", membership(ALICE, SALES));
    expect((await emulator.state()).users[ALICE].group_ids).toEqual([ALL_USERS, SALES]);
    const listed = await emulator.call("get_users", { filters: [{ id: "username", value: "alice" }] });
    expect(listed.body.users[0].groups).toEqual([
      { name: "All Users", group_id: ALL_USERS },
      { name: "Sales", group_id: SALES },
    ]);
  });
});
