/**
 * Both packs on the bulk kinds, ServerImport and UserSet: the hardening pack through
 * @pulumi/policy's analyzer machinery (served in this process, driven over the analyzer protocol),
 * and resource-needs-permissions on stacks holding them, naming what the key lacks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACK_NAME, policies } from "../../policy/hardening/policies";
import { resourceNeedsPermissions } from "../../policy/permissions/resource-needs-permissions";
import { AnalyzerDriver, servePack } from "./analyzer-client";
import { IDS, runStackPolicy, UNKNOWN, type FixtureResource } from "./helpers";

const VERSION = (require("../../policy/hardening/package.json") as { version: string }).version;
let driver: AnalyzerDriver;

beforeAll(async () => {
  driver = await servePack(PACK_NAME, VERSION, policies);
});

afterAll(() => driver?.close());

const lab = (servers: unknown): FixtureResource => ({ kind: "ServerImport", name: "lab", props: { servers } });
const staff = (props: Record<string, unknown>): FixtureResource => ({ kind: "UserSet", name: "staff", props });
const sshShared = { name: "ws-1", ipHostname: "10.0.0.1", port: 22, connectionType: "SSH" };
const rdp = { name: "ws-2", ipHostname: "10.0.0.2", port: 3389, connectionType: "RDP" };

describe("the hardening pack on the bulk kinds, over the analyzer protocol", () => {
  it("reports the bulk rules at their levels, and their tuning comes from config", async () => {
    await driver.configure({});
    expect((await driver.analyze(lab([rdp, sshShared]))).map((d) => [d.policy, d.level])).toEqual([["server-import-shared-credentials", "advisory"]]);
    const csv = "username,realm,force_password_reset,group_1\nada,ldap,,Administrators\nbob,,false,devs\n";
    expect((await driver.analyze(staff({ csv }))).map((d) => [d.policy, d.level, d.message])).toEqual([
      ["user-set-administrators", "advisory", expect.stringMatching(/\nUserSet 'staff': csv row 1 \(line 2\) puts its user into Administrators/)],
      ["user-set-password-reset", "advisory", expect.stringMatching(/\nUserSet 'staff': csv row 2 \(line 3\) is a local user without forcePasswordReset/)],
    ]);

    await driver.configure({
      "server-import-shared-credentials": { enforcementLevel: "mandatory" },
      "user-set-password-reset": { exemptResources: ["staff"] },
    });
    expect((await driver.analyze(lab([sshShared]))).map((d) => [d.policy, d.level])).toEqual([["server-import-shared-credentials", "mandatory"]]);
    expect((await driver.analyze(staff({ csv }))).map((d) => d.policy)).toEqual(["user-set-administrators"]);
  });

  it("rows not known during preview make the rules say they cannot run, as advisory", async () => {
    await driver.configure({ "server-import-shared-credentials": { enforcementLevel: "mandatory" } });
    expect((await driver.analyze(lab([rdp, UNKNOWN]))).map((d) => [d.policy, d.level, d.message])).toEqual([
      [
        "server-import-shared-credentials",
        "advisory",
        `can't run policy 'server-import-shared-credentials' from policy pack 'kasm-hardening@v${VERSION}' during preview: could not decide for ServerImport 'lab': the connection settings of some rows are not known yet`,
      ],
    ]);
  });
});

describe("resource-needs-permissions on the bulk kinds", () => {
  const key = (permissions: string[]) => ({
    permissions,
    systemGroupIds: { allUsers: IDS.allUsers, administrators: IDS.administrators },
    globalAdminUserIds: [IDS.admin1, "admin1"],
  });
  const servers = ["Servers View", "Servers Create", "Server Pools View", "Zones View", "Users View"];

  it("a ServerImport that assigns a user needs Users Modify, and Users Modify Admin for an admin named in globalAdminUserIds", async () => {
    expect(await runStackPolicy(resourceNeedsPermissions, [lab([rdp])], key(servers))).toEqual({ violations: [] });
    const assigning = await runStackPolicy(resourceNeedsPermissions, [lab([rdp, { ...sshShared, assignedUsername: "admin1" }])], key(servers));
    expect(assigning.violations.map((v) => v.message)).toEqual([
      expect.stringMatching(
        /^ServerImport 'lab' cannot be created and updated with this API key: create calls batch_create_server, which needs 'Users Modify', 'Users Modify Admin'/,
      ),
    ]);
    expect(assigning.violations[0].message).toContain("Grant the key: 'Users Modify', 'Users Modify Admin'.");
  });

  it("a UserSet listing Administrators needs Groups Modify System to create and Users Modify Admin to change and delete its users", async () => {
    const users = ["Users View", "Users Create", "Users Modify", "Users Delete", "Groups View", "Groups Modify"];
    const set = staff({ users: [{ username: "ada", groups: ["devs"] }] });
    expect(await runStackPolicy(resourceNeedsPermissions, [set], key(users))).toEqual({ violations: [] });
    const admins = await runStackPolicy(resourceNeedsPermissions, [staff({ users: [{ username: "ada", groups: ["Administrators"] }] })], key(users));
    expect(admins.violations).toHaveLength(1);
    expect(admins.violations[0].message).toMatch(/^UserSet 'staff' cannot be created, updated and deleted with this API key/);
    expect(admins.violations[0].message).toContain("'Groups Modify System'");
    expect(admins.violations[0].message).toContain("Grant the key: 'Groups Modify System', 'Groups View System', 'Users Modify Admin'.");
  });
});
