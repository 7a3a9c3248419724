/**
 * The bulk kinds in the permission table: their rows read alike from a list or from Kasm's CSV
 * (permissions/bulk-rows.ts), and what ServerImport and UserSet need in each step,
 * with the contextual permissions their rows bring.
 */
import { describe, expect, it } from "vitest";
import { serverImportRows, userSetRows } from "../../permissions/bulk-rows";
import { isUnknownValue, knowledgeFromFacts, LIFECYCLE_STEPS, resourcePermissionNeeds, type ResourceNeeds } from "../../permissions";
import { IDS, UNKNOWN, UNKNOWN_BOOL } from "./helpers";

const KNOWN = knowledgeFromFacts({
  allUsersGroupId: IDS.allUsers,
  administratorsGroupId: IDS.administrators,
  globalAdminUsers: [IDS.admin1, "admin1"],
});

const ops = (needs: ResourceNeeds, step: (typeof LIFECYCLE_STEPS)[number]) => needs[step].calls.map((c) => c.operation);
const perms = (needs: ResourceNeeds, step: (typeof LIFECYCLE_STEPS)[number]) => needs[step].requirements.flatMap((r) => r.all);
const undecided = (needs: ResourceNeeds, step: (typeof LIFECYCLE_STEPS)[number]) => needs[step].calls.flatMap((c) => c.undecided.flatMap((u) => u.adds));

const server = (extra: Record<string, unknown> = {}) => ({ name: "ws-1", ipHostname: "10.0.0.1", port: 22, connectionType: "SSH", ...extra });

describe("bulk rows", () => {
  it("reads a ServerImport's rows from the list or from the CSV alike", () => {
    const csv = "name,ip_hostname,port,use_user_private_key,assigned_username,labels\nws-1,10.0.0.1,22,Yes,alice,a;b\nws-2,10.0.0.2,x,maybe,,\n";
    expect(serverImportRows({ csv }, isUnknownValue)).toEqual({
      source: "csv",
      rows: [
        { name: "ws-1", ipHostname: "10.0.0.1", port: 22, useUserPrivateKey: true, assignedUsername: "alice", labels: ["a", "b"] },
        { name: "ws-2", ipHostname: "10.0.0.2", port: "x", useUserPrivateKey: "maybe" },
      ],
      lines: [2, 3],
    });
    expect(serverImportRows({ servers: [server(), UNKNOWN] }, isUnknownValue)).toEqual({ source: "array", rows: [server(), undefined] });
    expect(serverImportRows({ csv: UNKNOWN }, isUnknownValue)).toBeUndefined();
    expect(serverImportRows({ csv: 'name\n"open' }, isUnknownValue)).toBeUndefined();
  });

  it("gives each CSV row the line an editor shows: after the header, blank lines and line breaks inside quoted cells", () => {
    const csv = 'username,first_name\n\nada,Ada\n"bob","Robert\nthe second"\ncarl,Carl\n';
    expect(userSetRows({ csv }, isUnknownValue)?.lines).toEqual([3, 4, 6]);
  });

  it("reads a UserSet's group columns into groups", () => {
    const csv = "username,realm,force_password_reset,group_1,group_2\nada,local,true,devs,\nbob,,no,,ops\n";
    expect(userSetRows({ csv }, isUnknownValue)?.rows).toEqual([
      { username: "ada", realm: "local", forcePasswordReset: true, groups: ["devs"] },
      { username: "bob", forcePasswordReset: false, groups: ["ops"] },
    ]);
  });
});

describe("ServerImport row", () => {
  it("imports on create and update (listing the servers first, with the product's names), reads each server, and calls nothing on delete", () => {
    const needs = resourcePermissionNeeds("ServerImport", { servers: [server()] }, KNOWN);
    expect(LIFECYCLE_STEPS.map((step) => ops(needs, step))).toEqual([
      ["get_servers", "batch_create_server"],
      ["get_servers"],
      ["get_servers", "batch_create_server"],
      [],
    ]);
    expect(perms(needs, "create")).toEqual(["Servers Create"]);
    expect(needs.read.requirements[0].oneOf).toEqual(["Servers View", "Agents View"]);
  });

  it("needs Users Modify when a row assigns a user, and Users Modify Admin for a user with Global Admin (by username)", () => {
    expect(
      perms(resourcePermissionNeeds("ServerImport", { servers: [server(), server({ name: "ws-2", assignedUsername: "alice" })] }, KNOWN), "create"),
    ).toEqual(["Servers Create", "Users Modify"]);
    const csv = "name,ip_hostname,assigned_username\nws-1,10.0.0.1,ADMIN1\n";
    expect(perms(resourcePermissionNeeds("ServerImport", { csv }, KNOWN), "create")).toEqual(["Servers Create", "Users Modify", "Users Modify Admin"]);
  });

  it("leaves undecided what rows not known yet may need", () => {
    const unknownRows = resourcePermissionNeeds("ServerImport", { servers: UNKNOWN }, KNOWN);
    expect(perms(unknownRows, "create")).toEqual(["Servers Create"]);
    // Users Modify Admin depends on a user being assigned at all: the fact's words say so.
    expect(undecided(unknownRows, "create")).toEqual(["Users Modify"]);
    expect(unknownRows.create.calls.find((c) => c.operation === "batch_create_server")!.undecided[0].fact).toMatch(
      /not known yet; a user with Global Admin would also need Users Modify Admin/,
    );
    const unknownUser = resourcePermissionNeeds("ServerImport", { servers: [server({ assignedUsername: UNKNOWN })] }, KNOWN);
    expect(perms(unknownUser, "create")).toEqual(["Servers Create", "Users Modify"]);
    expect(undecided(unknownUser, "create")).toEqual(["Users Modify Admin"]);
    const noAdmins = knowledgeFromFacts({ allUsersGroupId: IDS.allUsers, administratorsGroupId: IDS.administrators });
    expect(undecided(resourcePermissionNeeds("ServerImport", { servers: [server({ assignedUsername: "alice" })] }, noAdmins), "create")).toEqual([
      "Users Modify Admin",
    ]);
  });
});

describe("UserSet row", () => {
  const user = (extra: Record<string, unknown> = {}) => ({ username: "ada", ...extra });

  it("reads the users pages, imports once, and deletes each user", () => {
    const needs = resourcePermissionNeeds("UserSet", { users: [user()] }, KNOWN);
    expect(ops(needs, "create")).toEqual(["get_users", "batch_create_user"]);
    expect(ops(needs, "read")).toEqual(["get_users"]);
    expect(ops(needs, "update")).toEqual(["get_users", "batch_create_user", "update_user", "delete_user"]);
    expect(ops(needs, "delete")).toEqual(["delete_user"]);
    expect(perms(needs, "create")).toEqual(["Users View", "Users Create"]);
    expect(perms(needs, "delete")).toEqual(["Users Delete", "Users Modify"]);
    // Memberships change only for rows that list groups; groups the row leaves out go only in authoritative mode.
    const grouped = { users: [user({ groups: ["devs"] })] };
    expect(ops(resourcePermissionNeeds("UserSet", grouped, KNOWN), "update")).toEqual([
      "get_users",
      "batch_create_user",
      "update_user",
      "add_user_group",
      "delete_user",
    ]);
    expect(ops(resourcePermissionNeeds("UserSet", { ...grouped, groupsMode: "authoritative" }, KNOWN), "update")).toContain("remove_user_group");
  });

  it("needs Groups Modify for rows with groups, Groups Modify System for All Users or Administrators, and Users Modify Admin for users it makes admins", () => {
    expect(perms(resourcePermissionNeeds("UserSet", { users: [user({ groups: ["devs"] })] }, KNOWN), "create")).toEqual([
      "Users View",
      "Users Create",
      "Groups Modify",
    ]);
    expect(perms(resourcePermissionNeeds("UserSet", { users: [user({ groups: ["All Users"] })] }, KNOWN), "create")).toContain("Groups Modify System");
    const admins = resourcePermissionNeeds("UserSet", { csv: "username,group_1\nada,devs\nroot,Administrators\n" }, KNOWN);
    expect(perms(admins, "create")).toEqual(["Users View", "Users Create", "Groups Modify", "Groups Modify System"]);
    expect(perms(admins, "delete")).toEqual(["Users Delete", "Users Modify", "Users Modify Admin"]);
  });

  it("needs Sessions Delete with forceDelete, or for a user listed with sessions", () => {
    expect(perms(resourcePermissionNeeds("UserSet", { users: [user()], forceDelete: true }, KNOWN), "delete")).toContain("Sessions Delete");
    const listed = knowledgeFromFacts({ usersWithSessions: ["Ada"], globalAdminUsers: [] });
    expect(perms(resourcePermissionNeeds("UserSet", { users: [user()] }, listed), "delete")).toContain("Sessions Delete");
    expect(undecided(resourcePermissionNeeds("UserSet", { users: [user()], forceDelete: UNKNOWN_BOOL }, KNOWN), "delete")).toEqual(["Sessions Delete"]);
  });

  it("leaves undecided what groups not known yet may need", () => {
    const needs = resourcePermissionNeeds("UserSet", { users: [user({ groups: UNKNOWN })] }, KNOWN);
    expect(perms(needs, "create")).toEqual(["Users View", "Users Create"]);
    expect(undecided(needs, "create")).toEqual(["Groups Modify"]);
    expect(needs.create.calls[1].undecided[0].fact).toMatch(/All Users or Administrators would also need Groups Modify System/);
    expect(undecided(resourcePermissionNeeds("UserSet", { users: [user({ groups: ["devs", UNKNOWN] })] }, KNOWN), "create")).toEqual(["Groups Modify System"]);
  });
});
