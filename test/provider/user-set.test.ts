/**
 * UserSet through Pulumi's real dynamic-provider host against the emulator: check (row by row,
 * before any request), create in one import, a no-change plan without requests, added, changed
 * and removed rows, groups in both modes, refresh after out-of-band changes and deletions, a
 * refused import, adoption, a permission denial, destroy, and the request counts of 1,000 users.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createKasmClient } from "../../provider/api";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { HostError, ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";
import { TEST_API_NAMES } from "../helpers/vocabulary";

/** The host's stderr comes through a pipe, possibly after the call's answer: wait a little for `text`. */
function stderrShows(text: RegExp): Promise<void> {
  return vi.waitFor(() => expect(host.stderr.join("")).toMatch(text), { timeout: 10_000 });
}

const ENGINEERING = "1e0a2b3c4d5e6f708192a3b4c5d6e7f8";
const SALES = "2f1b3c4d5e6f708192a3b4c5d6e7f809";
/** A group no user is in: its id cannot be learnt from user records. */
const SUPPORT = "3a2c4d5e6f708192a3b4c5d6e7f8091a";
const CREATE_ONLY = { key: "create-only-key", secret: "create-only-secret-41c7" };
const USERS_VIEW = { key: "users-view-key", secret: "users-view-secret-9b02" };

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({
    apiKeys: [
      { name: "create-only", key: CREATE_ONLY.key, secret: CREATE_ONLY.secret, permissions: ["Users View", "Groups View"] },
      { name: "users-view", key: USERS_VIEW.key, secret: USERS_VIEW.secret, permissions: ["Users View"] },
    ],
    groups: [
      { group_id: ENGINEERING, name: "Engineering" },
      { group_id: SALES, name: "Sales" },
      { group_id: SUPPORT, name: "Support" },
    ],
    users: [{ username: "seeded", groups: ["Engineering", "Sales"] }, { username: "taken", first_name: "Old" }, { username: "taken2" }, { username: "held" }],
    images: [{ name: "kasmweb/chrome:1.16.0" }],
  });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

async function userInKasm(username: string) {
  const res = await emulator.specCall("get_user", { target_user: { username } });
  return res.status === 200 ? res.body.user : undefined;
}

async function groupNames(username: string): Promise<string[]> {
  return ((await userInKasm(username))?.groups ?? []).map((g: { name: string }) => g.name).sort();
}

/** The operations the emulator served since `from` (one line per request: `<operation> <status> <ms>`). */
function served(from: number): string[] {
  return emulator.requests.slice(from).map((line) => line.split(" ")[0]);
}

describe("UserSet check", () => {
  it("refuses bad rows of `users` with their index and field, before any request", async () => {
    const set = new Driven(host, "UserSet", "bad-users");
    const before = emulator.requests.length;
    const { failures } = await set.check({
      users: [
        { username: "ann" },
        { firstName: "No name" },
        { username: "two words" },
        { username: "bob", realm: "admin" },
        { username: "ANN", forcePasswordReset: "yes" },
        { username: "cy", password: "pw-in-a-set", colour: "blue", groups: ["Sales", "Sales"] },
      ],
      groupsMode: "strict",
    });
    const byProperty = Object.fromEntries(failures.map((f) => [f.property, f.reason]));
    expect(Object.keys(byProperty).sort()).toEqual(
      [
        "groupsMode",
        "users[1].username",
        "users[2].username",
        "users[3].realm",
        "users[4].username",
        "users[4].forcePasswordReset",
        "users[5].password",
        "users[5].colour",
        "users[5].groups[1]",
      ].sort(),
    );
    expect(byProperty["users[1].username"]).toMatch(/required/);
    expect(byProperty["users[3].realm"]).toMatch(/'admin' is not one of ldap, local, oidc, saml/);
    expect(byProperty["users[4].username"]).toMatch(/'ANN' is also users\[0\].*lowercases/);
    expect(byProperty["users[4].forcePasswordReset"]).toMatch(/true or false/);
    expect(byProperty["users[5].password"]).toMatch(/sets no passwords.*User kind/);
    expect(byProperty["users[5].password"]).not.toContain("pw-in-a-set");
    expect(byProperty["users[5].groups[1]"]).toMatch(/twice/);
    expect(emulator.requests.length).toBe(before);
  });

  it("refuses a bad `csv` with row numbers and columns as Kasm's report counts them, before any request", async () => {
    const set = new Driven(host, "UserSet", "bad-csv");
    const before = emulator.requests.length;
    const csv = [
      "username,realm,force_password_reset,colour,group_1",
      "ann,local,true,red,Sales",
      ",local,false,red,",
      "bob,admin,maybe,red,",
      "Ann,,,red,",
    ].join("\n");
    const { failures } = await set.check({ csv });
    expect(failures.every((f) => f.property === "csv")).toBe(true);
    const reasons = failures.map((f) => f.reason);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^csv header, column colour: unknown column/),
        expect.stringMatching(/^csv row 2 \(line 3\), column username: username is required/),
        expect.stringMatching(/^csv row 3 \(line 4\), column realm: 'admin' is not one of ldap, local, oidc, saml/),
        expect.stringMatching(/^csv row 3 \(line 4\), column force_password_reset: 'maybe' is not a boolean/),
        expect.stringMatching(/^csv row 4 \(line 5\), column username: 'Ann' is also on csv row 1 \(line 2\)/),
      ]),
    );
    expect(reasons).toHaveLength(5);

    const { failures: unparsable } = await set.check({ csv: 'username,first_name\nann,"unclosed\n' });
    expect(unparsable[0]).toMatchObject({ property: "csv", reason: expect.stringMatching(/cannot be parsed/) });
    const { failures: both } = await set.check({ csv: "username\nann\n", users: [{ username: "ann" }] });
    expect(both[0]).toMatchObject({ property: "csv", reason: expect.stringMatching(/either as `csv` or as `users`, not both/) });
    const { failures: neither } = await set.check({ forceDelete: true });
    expect(neither[0]).toMatchObject({ property: "users", reason: expect.stringMatching(/required/) });
    expect(emulator.requests.length).toBe(before);
  });

  it("lets rows unknown during preview through", async () => {
    const set = new Driven(host, "UserSet", "preview");
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    expect((await set.check({ users: unknown })).failures).toEqual([]);
    expect((await set.check({ users: [{ username: "ann", firstName: unknown }, { username: unknown }] })).failures).toEqual([]);
    expect((await set.check({ csv: unknown })).failures).toEqual([]);
  });
});

describe("UserSet", () => {
  it("creates every user in one import, plans no change without a request, and applies changed, added and removed rows", async () => {
    const set = new Driven(host, "UserSet", "team");
    const users = [
      { username: "Alice", firstName: "Alice", email: "alice@example.com", city: "Lyon", groups: ["Engineering"] },
      { username: "bob", lastName: "Builder", realm: "oidc", forcePasswordReset: true, groups: ["Engineering", "Sales"] },
      { username: "carol", organization: "Acme" },
    ];
    let from = emulator.requests.length;
    const state = await set.create({ users });
    expect(served(from)).toEqual(["get_users", "batch_create_user"]);
    expect(state.count).toBe(3);
    const ids = state.userIds as Record<string, string>;
    expect(Object.keys(ids).sort()).toEqual(["alice", "bob", "carol"]);
    expect(await userInKasm("alice")).toMatchObject({ user_id: ids.alice, first_name: "Alice", realm: "local" });
    expect(await userInKasm("bob")).toMatchObject({ user_id: ids.bob, last_name: "Builder", realm: "oidc" });
    expect(await groupNames("bob")).toEqual(["All Users", "Engineering", "Sales"]);
    // What only the import sets, as the emulator stores it.
    const stored = (await emulator.state()).users;
    expect(stored[ids.alice]).toMatchObject({ email: "alice@example.com", city: "Lyon" });
    expect(stored[ids.bob]).toMatchObject({ force_password_reset: true });

    // The same program again: no change, and no request to find out. A username's case does not matter.
    from = emulator.requests.length;
    expect(await set.diff({ users })).toMatchObject({ changes: "none", replaces: [] });
    expect(await set.diff({ users: [{ ...users[0], username: "ALICE" }, users[1], users[2]] })).toMatchObject({ changes: "none" });
    expect(emulator.requests.length).toBe(from);

    // A changed name, an added row, a removed row, a group added (additive mode) in one update.
    const next = [{ ...users[0], firstName: "Alicia", groups: ["Engineering", "Sales"] }, users[1], { username: "dave", firstName: "Dave" }];
    expect(await set.diff({ users: next })).toMatchObject({ changes: "some", replaces: [] });
    from = emulator.requests.length;
    const updated = await set.update({ users: next });
    expect(served(from).sort()).toEqual(["add_user_group", "batch_create_user", "delete_user", "get_users", "update_user"]);
    expect(await userInKasm("alice")).toMatchObject({ first_name: "Alicia" });
    expect(await groupNames("alice")).toEqual(["All Users", "Engineering", "Sales"]);
    expect(await userInKasm("carol")).toBeUndefined();
    expect(await userInKasm("dave")).toMatchObject({ first_name: "Dave" });
    expect(Object.keys(updated.userIds as object).sort()).toEqual(["alice", "bob", "dave"]);
    expect(updated.count).toBe(3);
    expect(await set.diff({ users: next })).toMatchObject({ changes: "none" });

    // Additive: a group taken out of the list stays in Kasm (the set forgets it).
    const fewer = [{ ...next[0], groups: ["Engineering"] }, next[1], next[2]];
    await set.update({ users: fewer });
    expect(await groupNames("alice")).toEqual(["All Users", "Engineering", "Sales"]);

    // Authoritative: groups not listed are removed, but never All Users.
    from = emulator.requests.length;
    await set.update({ users: fewer, groupsMode: "authoritative" });
    expect(served(from).sort()).toEqual(["get_users", "remove_user_group"]);
    expect(await groupNames("alice")).toEqual(["All Users", "Engineering"]);
    expect(await groupNames("bob")).toEqual(["All Users", "Engineering", "Sales"]);
    const noGroups = [fewer[0], { ...fewer[1], groups: [] }, fewer[2]];
    await set.update({ users: noGroups, groupsMode: "authoritative" });
    expect(await groupNames("bob")).toEqual(["All Users"]);
    // And back: a group added in authoritative mode.
    await set.update({ users: fewer, groupsMode: "authoritative" });
    expect(await groupNames("bob")).toEqual(["All Users", "Engineering", "Sales"]);

    // A change update_user cannot make is not applied, and a warning says so.
    const moved = [{ ...fewer[0], email: "alice@elsewhere.example", realm: "saml" }, fewer[1], fewer[2]];
    from = emulator.requests.length;
    await set.update({ users: moved, groupsMode: "authoritative" });
    expect(served(from)).toEqual([]);
    await stderrShows(/these changes were not applied: 'Alice' \(realm, email\).*update_user has no such fields/s);

    await set.delete();
    for (const name of ["alice", "bob", "dave"]) expect(await userInKasm(name)).toBeUndefined();
  });

  it("refresh reads the pages, shows drift, drops users deleted in Kasm, and the next up brings them back", async () => {
    const set = new Driven(host, "UserSet", "drift");
    const users = [
      { username: "erin", firstName: "Erin", groups: ["Engineering"] },
      { username: "frank", lastName: "Frank", realm: "local" },
      { username: "gina" },
    ];
    const state = await set.create({ users, groupsMode: "authoritative" });
    const ids = state.userIds as Record<string, string>;

    await emulator.specCall("update_user", { target_user: { user_id: ids.erin, first_name: "Changed" } });
    await emulator.specCall("remove_user_group", { target_user: { user_id: ids.erin }, target_group: { group_id: ENGINEERING } });
    await emulator.specCall("add_user_group", { target_user: { user_id: ids.erin }, target_group: { group_id: SALES } });
    await emulator.specCall("delete_user", { target_user: { user_id: ids.gina }, force: true });

    const from = emulator.requests.length;
    const refreshed = await set.read();
    expect(served(from)).toEqual(["get_users"]);
    expect(refreshed.inputs?.users).toEqual([{ username: "erin", firstName: "Changed", groups: ["Sales"] }, users[1]]);
    expect(refreshed.properties).toMatchObject({ count: 2, userIds: { erin: ids.erin, frank: ids.frank } });
    expect(refreshed.properties.userIds as object).not.toHaveProperty("gina");

    expect(await set.diff({ users, groupsMode: "authoritative" })).toMatchObject({ changes: "some" });
    await set.update({ users, groupsMode: "authoritative" });
    expect(await userInKasm("erin")).toMatchObject({ first_name: "Erin" });
    expect(await groupNames("erin")).toEqual(["All Users", "Engineering"]);
    expect(await userInKasm("gina")).toBeDefined();
    expect((await set.read()).inputs?.users).toEqual(users);
    expect(await set.diff({ users, groupsMode: "authoritative" })).toMatchObject({ changes: "none" });

    // Renamed in Kasm: no longer the declared user. It drops out with a warning naming it, and stays in Kasm.
    await emulator.specCall("update_user", { target_user: { user_id: ids.frank, username: "franklin" } });
    expect((await set.read()).properties).toMatchObject({ count: 2 });
    await stderrShows(/'frank' \(now 'franklin', id [0-9a-f]{32}\) was renamed in Kasm/);
    await set.delete();
    expect(await userInKasm("franklin")).toBeDefined();
  });

  it("an update without a refresh takes users deleted in Kasm out of the set, and the next up imports them again", async () => {
    const set = new Driven(host, "UserSet", "stale");
    const state = await set.create({ users: [{ username: "yann" }, { username: "zoe", firstName: "Zoe" }] });
    await emulator.specCall("delete_user", { target_user: { user_id: (state.userIds as Record<string, string>).zoe }, force: true });
    const next = {
      users: [
        { username: "yann", lastName: "Y" },
        { username: "zoe", firstName: "Zoey", groups: ["Sales"] },
      ],
    };
    const updated = await set.update(next);
    expect(updated).toMatchObject({ count: 1, users: [{ username: "yann", lastName: "Y" }] });
    await stderrShows(/'zoe' was deleted in Kasm since the last refresh/);
    expect(await set.diff(next)).toMatchObject({ changes: "some" });
    await set.update(next);
    expect(await userInKasm("zoe")).toMatchObject({ first_name: "Zoey" });
    expect(await groupNames("zoe")).toEqual(["All Users", "Sales"]);
    await set.delete();
  });

  it("takes Kasm's import file as it is, and writes drift back into it", async () => {
    const set = new Driven(host, "UserSet", "from-csv");
    const csv = "username,first_name,email,group_1\nhank,Hank,hank@example.com,Sales\nIris,Iris,,\n";
    const state = await set.create({ csv });
    expect(state).toMatchObject({ csv, count: 2 });
    expect(await groupNames("hank")).toEqual(["All Users", "Sales"]);
    expect((await set.read()).inputs?.csv).toBe(csv);
    // Another spelling of the same rows is no change.
    expect(await set.diff({ csv: "username,first_name,email,group_1\r\nHANK,Hank,hank@example.com,Sales\r\niris,Iris,,\r\n" })).toMatchObject({
      changes: "none",
    });

    await emulator.specCall("update_user", { target_user: { user_id: (state.userIds as Record<string, string>).hank, first_name: "Henry" } });
    const drifted = await set.read();
    expect(drifted.inputs?.csv).toBe("username,first_name,email,group_1\r\nhank,Henry,hank@example.com,Sales\r\niris,Iris,,\r\n");
    expect(await set.diff({ csv })).toMatchObject({ changes: "some" });
    await set.update({ csv });
    expect(await userInKasm("hank")).toMatchObject({ first_name: "Hank" });
    await set.delete();
  });

  it("a refused import names every row problem with its code and creates nothing", async () => {
    const set = new Driven(host, "UserSet", "refused");
    const from = emulator.requests.length;
    const error = await set
      .create({ users: [{ username: "jack" }, { username: "kate", groups: ["Nope"] }, { username: "liam", groups: ["Sales", "Gone"] }] })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(/refused the import.*created no user/s);
    expect(message).toMatch(/users\[1\] \('kate'\)\.groups\[0\]: CSV_ERROR_011 .*Nope/);
    expect(message).toMatch(/users\[2\] \('liam'\)\.groups\[1\]: CSV_ERROR_011 .*Gone/);
    expect(served(from)).toEqual(["get_users", "batch_create_user"]);
    for (const name of ["jack", "kate", "liam"]) expect(await userInKasm(name)).toBeUndefined();

    const csvSet = new Driven(host, "UserSet", "refused-csv");
    const csvError = await csvSet.create({ csv: "username,group_1\nmia,\nnoah,Nope\n" }).catch((e: Error) => e);
    expect((csvError as Error).message).toMatch(/csv row 2 \(line 3\) \('noah'\), column group_1: CSV_ERROR_011/);
    expect(await userInKasm("mia")).toBeUndefined();
  });

  it("an existing username is refused, naming it, before anything is created; adopt takes it over", async () => {
    const clash = new Driven(host, "UserSet", "clash");
    const users = [{ username: "olga" }, { username: "Taken", firstName: "New", groups: ["Engineering"] }, { username: "taken2", email: "t2@example.com" }];
    const error = await clash.create({ users }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/2 users 'Taken', 'taken2' already exist in Kasm.*Nothing was created.*adopt: true/s);
    expect(await userInKasm("olga")).toBeUndefined();

    const adopted = new Driven(host, "UserSet", "adopted");
    const taken = await userInKasm("taken");
    const state = await adopted.create({ users, adopt: true });
    expect(state.userIds).toMatchObject({ olga: expect.any(String), taken: taken.user_id });
    expect(await userInKasm("taken")).toMatchObject({ first_name: "New" });
    expect(await groupNames("taken")).toEqual(["All Users", "Engineering"]);
    await stderrShows(/adopted users keep values that only an import sets: 'taken2' \(email\)/);
    await adopted.delete();
    expect(await userInKasm("taken")).toBeUndefined();
  });

  it.skipIf(TEST_API_NAMES === "product")(
    "adding an existing user to a group no user is in needs its id in groupIds, and says so before any write",
    async () => {
      const set = new Driven(host, "UserSet", "support");
      await set.create({ users: [{ username: "pia" }] });
      const next = { users: [{ username: "pia", groups: ["Support"] }] };
      const from = emulator.requests.length;
      await expect(set.update(next)).rejects.toThrow(/id of group 'Support' \(for 'pia'\) is unknown.*groupIds.*Access Management, Groups.*kasm:apiNames/s);
      expect(served(from)).toEqual(["get_users"]);
      await set.update({ ...next, groupIds: { Support: SUPPORT } });
      expect(await groupNames("pia")).toEqual(["All Users", "Support"]);
      await set.delete();
    },
  );

  it.skipIf(TEST_API_NAMES === "spec")("a released Kasm lists its groups: an existing user joins a group no user is in by its name alone", async () => {
    const set = new Driven(host, "UserSet", "support");
    await set.create({ users: [{ username: "pia" }] });
    const from = emulator.requests.length;
    await set.update({ users: [{ username: "pia", groups: ["Support"] }] });
    expect(served(from)).toEqual(["get_users", "get_groups", "add_user_group"]);
    expect(await groupNames("pia")).toEqual(["All Users", "Support"]);
    // A name no group has is refused before any write, naming the group.
    const before = emulator.requests.length;
    await expect(set.update({ users: [{ username: "pia", groups: ["Support", "Suport-typo"] }] })).rejects.toThrow(/no group named 'Suport-typo'/);
    expect(served(before)).toEqual(["get_users", "get_groups"]);
    await set.delete();
  });

  it("destroying users with sessions fails with advice unless forceDelete is set", async () => {
    const set = new Driven(host, "UserSet", "busy");
    const state = await set.create({ users: [{ username: "quinn" }, { username: "rose" }] });
    const images = await emulator.specCall("get_images");
    await emulator.specCall("request_ws", { user_id: (state.userIds as Record<string, string>).quinn, image_id: images.body.images[0].image_id });
    await expect(set.delete()).rejects.toThrow(/1 of the 2 users left were deleted, 1 could not be.*'quinn'.*forceDelete: true/s);
    expect(await userInKasm("rose")).toBeUndefined();
    expect(await userInKasm("quinn")).toBeDefined();
    await set.update({ users: [{ username: "quinn" }, { username: "rose" }], forceDelete: true });
    await set.delete();
    expect(await userInKasm("quinn")).toBeUndefined();
  });

  it("a failure after the import keeps the created users in the state, and the next update finishes the work", async () => {
    const faults = (config: Record<string, unknown> | null) => emulator.faults(config);
    const set = new Driven(host, "UserSet", "half");
    const users = [{ username: "uma" }, { username: "vic" }, { username: "held", firstName: "Adopted" }];
    await faults({ rate: 1, kinds: ["500"], operations: ["update_user"], phase: "before", seed: 1 });
    let error: unknown;
    try {
      error = await set.create({ users, adopt: true }).catch((e: unknown) => e);
    } finally {
      await faults(null);
    }
    const failure = (error as HostError).initFailure;
    expect(failure?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(failure?.reasons.join()).toMatch(/update_user/);
    // The imported users are in the state; the adopted one, not yet brought to the program, is not.
    expect(failure?.properties).toMatchObject({ count: 2, users: [{ username: "uma" }, { username: "vic" }] });
    expect(Object.keys(failure?.properties.userIds as object).sort()).toEqual(["uma", "vic"]);

    // As the engine does: the half-created set in the state, then an update towards the program.
    set.id = failure!.id;
    set.state = failure!.properties;
    expect(await set.diff({ users, adopt: true })).toMatchObject({ changes: "some" });
    await set.update({ users, adopt: true });
    expect(await userInKasm("held")).toMatchObject({ first_name: "Adopted" });

    // The import's answer is lost after Kasm applied it: the pages show the users, and they are in the set.
    await faults({ rate: 1, kinds: ["500"], operations: ["batch_create_user"], phase: "after", seed: 1 });
    try {
      await set.update({ users: [...users, { username: "xena" }], adopt: true });
    } finally {
      await faults(null);
    }
    expect(set.state.userIds).toMatchObject({ xena: (await userInKasm("xena")).user_id });

    // A failure in the middle of an update: what was done is kept, what was not stays as before.
    await faults({ rate: 1, kinds: ["500"], operations: ["delete_user"], phase: "before", seed: 1 });
    try {
      error = await set.update({ users: [{ username: "uma", lastName: "Changed" }, { username: "will" }], adopt: true }).catch((e: unknown) => e);
    } finally {
      await faults(null);
    }
    const partial = (error as HostError).initFailure;
    expect(partial?.reasons.join()).toMatch(/delete_user/);
    expect(Object.keys(partial?.properties.userIds as object).sort()).toEqual(["held", "uma", "vic", "will", "xena"]);
    expect(partial?.properties.users).toEqual(expect.arrayContaining([{ username: "uma", lastName: "Changed" }, { username: "will" }, { username: "vic" }]));
    set.state = partial!.properties;
    await set.update({ users: [{ username: "uma", lastName: "Changed" }, { username: "will" }], adopt: true });
    for (const name of ["vic", "held", "xena"]) expect(await userInKasm(name)).toBeUndefined();
    await set.delete();
  });

  it("a refresh with a key that cannot see groups keeps the declared groups and says drift in them cannot be seen", async () => {
    const set = new Driven(host, "UserSet", "no-groups-view");
    const users = [{ username: "gus", groups: ["Sales"] }];
    await set.create({ users });
    const viewer = await hostFor(emulator, USERS_VIEW);
    try {
      const refreshed = await viewer.read(set.urn, set.id, set.state);
      expect(refreshed.inputs?.users).toEqual(users);
    } finally {
      await viewer.stop();
    }
    expect(viewer.stderr.join("")).toMatch(/did not return the users' groups.*Grant the API key: Groups View/s);
    await set.delete();
  });

  it("a key without Users Create is refused with the permission to grant, and nothing is created", async () => {
    const limited = await hostFor(emulator, CREATE_ONLY);
    try {
      const set = new Driven(limited, "UserSet", "denied");
      const error = await set.create({ users: [{ username: "sam" }, { username: "tess" }] }).catch((e: Error) => e);
      expect((error as Error).message).toMatch(/batch_create_user.*Users Create/s);
      expect((error as Error).message).not.toContain(CREATE_ONLY.secret);
      expect(await userInKasm("sam")).toBeUndefined();
    } finally {
      await limited.stop();
    }
    expect(limited.stderr.join("")).not.toContain(CREATE_ONLY.secret);
  });
});

describe("UserSet with 1,000 users", () => {
  let big: TestEmulator;
  let bigHost: ProviderHost;
  beforeAll(async () => {
    big = await startTestEmulator({ groups: [{ group_id: ENGINEERING, name: "Engineering" }], users: [{ username: "seeded" }] });
    bigHost = await hostFor(big);
  });
  afterAll(async () => {
    await bigHost?.stop();
    await big?.close();
  });

  it("creates them in at most 5 requests, plans no change with none, and refreshes in at most 12", async () => {
    const users = Array.from({ length: 1000 }, (_, i) => ({
      username: `user${String(i).padStart(4, "0")}`,
      firstName: `First ${i}`,
      email: `user${i}@example.com`,
      groups: i % 2 ? ["Engineering"] : [],
    }));
    const set = new Driven(bigHost, "UserSet", "thousand");
    const ms = (start: number) => Math.round(performance.now() - start);
    let from = big.requests.length;
    let start = performance.now();
    const state = await set.create({ users });
    const createMs = ms(start);
    const createRequests = big.requests.length - from;
    expect(createRequests).toBeLessThanOrEqual(5);
    expect(Object.keys(state.userIds as object)).toHaveLength(1000);

    from = big.requests.length;
    expect(await set.diff({ users })).toMatchObject({ changes: "none" });
    expect(big.requests.length - from).toBe(0);

    from = big.requests.length;
    start = performance.now();
    const refreshed = await set.read();
    const refreshMs = ms(start);
    const refreshRequests = big.requests.length - from;
    expect(refreshRequests).toBeLessThanOrEqual(12);
    expect(refreshed.properties.count).toBe(1000);
    expect(await set.diff({ users })).toMatchObject({ changes: "none" });

    // Printed, never asserted: figures for the README come from runs like this one.
    console.log(
      `UserSet of 1,000 users through the host: create ${createRequests} request(s) in ${createMs} ms, ` +
        `refresh ${refreshRequests} request(s) in ${refreshMs} ms`,
    );
  });

  it("destroys them all, one delete_user each", async () => {
    const users = Array.from({ length: 1000 }, (_, i) => ({ username: `gone${String(i).padStart(4, "0")}` }));
    const set = new Driven(bigHost, "UserSet", "thousand-gone");
    await set.create({ users });
    const from = big.requests.length;
    const start = performance.now();
    await set.delete();
    const deleteMs = Math.round(performance.now() - start);
    expect(big.requests.slice(from).filter((line) => line.startsWith("delete_user 200"))).toHaveLength(1000);
    const left = await big.specCall("get_users", { page_size: 1000, filters: [{ id: "username", value: "gone" }] });
    expect(left.body.users).toEqual([]);
    console.log(`UserSet of 1,000 users through the host: destroy 1,000 request(s) in ${deleteMs} ms`);
  });

  it("looks a few users up by name instead of reading every page, when that takes fewer requests", async () => {
    const client = createKasmClient({ baseUrl: big.url, apiKey: ADMIN.key, apiKeySecret: ADMIN.secret, apiNames: TEST_API_NAMES });
    try {
      // 1,001 users, pages of 100: after the first page, 2 names cost 2 requests where the pages would cost 10.
      let from = big.requests.length;
      const few = await client.users.getUsersNamed(["USER0999", "user0500"], { pageSize: 100 });
      expect(big.requests.length - from).toBe(3);
      expect(few.complete).toBe(false);
      expect(few.users.map((u) => u.username)).toEqual(expect.arrayContaining(["user0999", "user0500"]));
      // 20 names: the pages are cheaper, and read everyone.
      from = big.requests.length;
      const many = await client.users.getUsersNamed(
        Array.from({ length: 20 }, (_, i) => `user09${50 + i}`),
        { pageSize: 100 },
      );
      expect(big.requests.length - from).toBe(11);
      expect(many).toMatchObject({ complete: true });
      expect(many.users).toHaveLength(1001);
    } finally {
      await client.close();
    }
  });
});

describe("UserSet secrets", () => {
  it("the API key secret never reached the host's stderr", async () => {
    await host.stop();
    expect(host.stderr.join("")).not.toContain(ADMIN.secret);
  });
});
