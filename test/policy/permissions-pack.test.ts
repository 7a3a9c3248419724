/**
 * The permissions pack's policies, called directly: each from a compliant stack and key, with one
 * field changed per case.
 */
import { describe, expect, it } from "vitest";
import { keyPermissionDependencies } from "../../policy/permissions/key-permission-dependencies";
import { leastPrivilegePolicy } from "../../policy/permissions/least-privilege";
import { readOnlyKey } from "../../policy/permissions/read-only-key";
import { resourceNeedsPermissions } from "../../policy/permissions/resource-needs-permissions";
import { IDS, runStackPolicy, type FixtureResource } from "./helpers";
import { NEEDED, PASSWORD, config, set, stack, without } from "./fixtures";

describe("resource-needs-permissions", () => {
  it("passes a key that holds exactly what the stack needs", async () => {
    expect(await runStackPolicy(resourceNeedsPermissions, stack(), config())).toEqual({ violations: [] });
  });

  it("names the resource, the operation, the missing permission and what to grant", async () => {
    const { violations } = await runStackPolicy(resourceNeedsPermissions, stack(), config({ permissions: without("Groups Modify") }));
    expect(violations.map((v) => v.urn)).toEqual([
      "urn:pulumi:ci::kasm-app::pulumi-nodejs:dynamic/kasm:GroupMembership::alice-devs",
      "urn:pulumi:ci::kasm-app::pulumi-nodejs:dynamic/kasm:EgressProviderMapping::vpn-devs",
    ]);
    expect(violations[0].message).toBe(
      "GroupMembership 'alice-devs' cannot be created and deleted with this API key: create calls add_user_group, which needs " +
        "'Groups Modify'; delete calls remove_user_group, which needs 'Groups Modify'. Grant the key: 'Groups Modify'.",
    );
    expect(violations[1].message).toContain(
      "create calls create_egress_provider_mapping (unless the provider has a mapping for the target), which needs 'Groups Modify' (Groups Modify: it targets a group)",
    );
    // The mapping there is taken over, adopt or not: the create may update it instead.
    expect(violations[1].message).toContain(
      "create calls update_egress_provider_mapping (when the provider has a mapping for the target that differs from the program), which needs 'Groups Modify'",
    );
  });

  it("a WorkspaceRegistry: names the registry permission the key lacks, the call and when it is made", async () => {
    const registries = stack((r) => r.push({ kind: "WorkspaceRegistry", name: "acme", props: { url: "https://registry.example.org/", autoUpdate: true } }));
    const withRegistries = [
      ...NEEDED,
      "Registries View",
      "Registries Create",
      "Registries Modify",
      "Registries Delete",
      "Images View",
      "System View",
      "Agents View",
    ];
    expect(await runStackPolicy(resourceNeedsPermissions, registries, config({ permissions: withRegistries }))).toEqual({ violations: [] });
    const { violations } = await runStackPolicy(
      resourceNeedsPermissions,
      registries,
      config({ permissions: withRegistries.filter((p) => p !== "Registries Modify") }),
    );
    expect(violations.map((v) => v.urn)).toEqual(["urn:pulumi:ci::kasm-app::pulumi-nodejs:dynamic/kasm:WorkspaceRegistry::acme"]);
    expect(violations[0].message).toBe(
      "WorkspaceRegistry 'acme' cannot be created and updated with this API key: create calls registry_auto_updates (with autoUpdate: true, after the create), " +
        "which needs 'Registries Modify'; update calls registry_auto_updates, which needs 'Registries Modify'. Grant the key: 'Registries Modify'.",
    );
    // Registries View counts only with what it needs (dependency rule 4): the grant names them.
    const view = await runStackPolicy(resourceNeedsPermissions, registries, config({ permissions: withRegistries.filter((p) => p !== "Agents View") }));
    expect(view.violations[0].message).toContain("Grant the key: 'Agents View'.");
  });

  it("a permission whose dependency is missing does not count, and the grant is closed under the rules", async () => {
    const { violations } = await runStackPolicy(resourceNeedsPermissions, stack(), config({ permissions: without("Casting View") }));
    expect(violations).toHaveLength(1);
    expect(violations[0].message).toMatch(/^CastConfig 'kiosk' cannot be created, updated and deleted/);
    expect(violations[0].message).toContain("Grant the key: 'Casting View'.");
  });

  it("putting the stack's user into Administrators needs Groups Modify System, then Users Modify Admin for later changes to the user", async () => {
    const resources = stack((r) => set(r, "alice-devs", { groupId: IDS.administrators }));
    const { violations } = await runStackPolicy(resourceNeedsPermissions, resources, config());
    const byName = Object.fromEntries(violations.map((v) => [v.urn!.split("::").pop(), v.message]));
    expect(Object.keys(byName).sort()).toEqual(["alice", "alice-attrs", "alice-devs"]);
    expect(byName["alice-devs"]).toContain("add_user_group, which needs 'Groups Modify System'");
    expect(byName["alice"]).toMatch(/^User 'alice' cannot be updated with this API key: update calls update_user/);
    expect(byName["alice"]).toContain("'Users Modify Admin'");
    expect(byName["alice-attrs"]).toContain("update_user_attributes");
  });

  it("an existing user listed in globalAdminUserIds needs Users Modify Admin", async () => {
    const resources = stack((r) => {
      const attrs = r.find((x) => x.name === "alice-attrs")!;
      Object.assign(attrs, { props: { userId: IDS.admin1, showTips: false }, from: {} });
    });
    const { violations } = await runStackPolicy(resourceNeedsPermissions, resources, config());
    expect(violations.map((v) => v.message)).toEqual([expect.stringContaining("UserAttributes 'alice-attrs' cannot be created and updated")]);
  });

  it("deleting a user listed in usersWithSessions, or one with forceDelete, needs Sessions Delete", async () => {
    const listed = await runStackPolicy(resourceNeedsPermissions, stack(), config({ usersWithSessions: ["alice"] }));
    expect(listed.violations.map((v) => v.message)).toEqual([expect.stringContaining("delete calls delete_user, which needs 'Sessions Delete'")]);
    const forced = await runStackPolicy(
      resourceNeedsPermissions,
      stack((r) => set(r, "alice", { forceDelete: true })),
      config(),
    );
    expect(forced.violations).toHaveLength(1);
    expect(forced.violations[0].message).toContain("Grant the key: 'Sessions Delete', 'Sessions View'.");
  });

  it("leaves a Read Only key to read-only-key: one violation per cause", async () => {
    // Every permission the stack needs, but Read Only: only read-only-key speaks.
    expect(await runStackPolicy(resourceNeedsPermissions, stack(), config({ readOnly: true }))).toEqual({ violations: [] });
    // Read Only and no permissions: this policy names the permissions, and not Read Only.
    const { violations } = await runStackPolicy(resourceNeedsPermissions, stack(), config({ permissions: [], readOnly: true }));
    expect(violations).toHaveLength(6);
    expect(violations[0].message).toContain("create calls create_user, which needs 'Users Create'");
    for (const v of violations) expect(v.message).not.toMatch(/Read Only/);
  });

  it("says it could not decide when a fact it needs is not known (no systemGroupIds)", async () => {
    const outcome = await runStackPolicy(resourceNeedsPermissions, stack(), config({ systemGroupIds: undefined }));
    expect(outcome.violations).toEqual([]);
    expect(outcome.undecided).toContain(
      "GroupMembership 'alice-devs': create (add_user_group) needs 'Groups Modify System' if so: could not decide whether the group (groupId) is a system group",
    );
  });

  it("says it could not decide when a target is not known during preview and nothing links it", async () => {
    const resources = stack((r) => Object.assign(r.find((x) => x.name === "alice-attrs")!, { from: {} }));
    const outcome = await runStackPolicy(resourceNeedsPermissions, resources, config());
    // It names the setting that settles it.
    expect(outcome.undecided).toContain(
      "could not decide whether the user (userId, not known yet) holds Global Admin; list the users that do in globalAdminUserIds",
    );
    // With the key able to modify admins it does not matter.
    const able = await runStackPolicy(resourceNeedsPermissions, resources, config({ permissions: [...NEEDED, "Users Modify Admin"] }));
    expect(able).toEqual({ violations: [] });
  });

  it("never prints property values (secrets reach policies unwrapped)", async () => {
    const outcome = await runStackPolicy(resourceNeedsPermissions, stack(), config({ permissions: [], readOnly: true }));
    for (const v of outcome.violations) {
      expect(v.message).not.toContain(PASSWORD);
      expect(v.message).not.toContain("kiosk-key");
      expect(v.message).not.toContain("function secret");
    }
    expect(outcome.violations).toHaveLength(6);
  });

  it("refuses unknown permission names, naming them, as one mandatory violation on the stack, and judges nothing", async () => {
    expect(await runStackPolicy(resourceNeedsPermissions, stack(), config({ permissions: ["Users Veiw", "users create", "Frobnicate"] }))).toEqual({
      violations: [
        {
          message:
            "policy config of 'resource-needs-permissions': unknown permission names 'Users Veiw' (did you mean 'Users View'?), " +
            "'users create' (did you mean 'Users Create'?), 'Frobnicate'. Write each name exactly as the Kasm Developer API does, such as 'Users View' or 'Groups Modify System'. " +
            "Pulumi gives each policy its own config: correct it under every policy's name that repeats it. The pack judges nothing with a config it cannot use.",
          urn: undefined,
          enforcementLevel: "mandatory",
        },
      ],
    });
  });

  it("does not apply to a stack without Kasm resources", async () => {
    const outcome = await runStackPolicy(resourceNeedsPermissions, [{ kind: "Other", name: "x", props: {} }], config());
    expect(outcome.notApplicable).toBe("the stack has no Kasm resources");
  });
});

describe("read-only-key", () => {
  const kiosk = stack().find((r) => r.name === "kiosk")!;

  it("passes a key that is not Read Only", async () => {
    expect(await runStackPolicy(readOnlyKey, [kiosk], { readOnly: false })).toEqual({ violations: [] });
  });

  it("flags a resource whose provider writes when the key is Read Only, on that resource", async () => {
    expect(await runStackPolicy(readOnlyKey, [kiosk], { readOnly: true })).toEqual({
      violations: [
        {
          message:
            "The API key is Read Only, so it cannot apply CastConfig 'kiosk': create calls create_cast_config, update calls update_cast_config, delete calls delete_cast_config, which write.",
          urn: expect.stringMatching(/::kiosk$/),
        },
      ],
    });
  });

  it("passes a resource that only reads (attributes with nothing declared)", async () => {
    expect(await runStackPolicy(readOnlyKey, [{ kind: "UserAttributes", name: "a", props: { userId: IDS.plain1 } }], { readOnly: true })).toEqual({
      violations: [],
    });
  });

  it("does not apply to a stack without Kasm resources", async () => {
    expect(await runStackPolicy(readOnlyKey, [{ kind: "Other", name: "x", props: {} }], { readOnly: true })).toEqual({
      violations: [],
      notApplicable: "the stack has no Kasm resources",
    });
  });
});

describe("key-permission-dependencies", () => {
  it("passes a key whose permissions satisfy the rules", async () => {
    expect(await runStackPolicy(keyPermissionDependencies, stack(), config())).toEqual({ violations: [] });
  });

  it("names the rule and the missing permission", async () => {
    const { violations } = await runStackPolicy(keyPermissionDependencies, stack(), config({ permissions: without("Users View") }));
    expect(violations.map((v) => v.message)).toEqual(
      ["Users Modify", "Users Create", "Users Delete"].map(
        (p) => `The API key breaks rule 1: '${p}' needs 'Users View' (rule 1: A Modify, Create or Delete permission needs the matching View permission.).`,
      ),
    );
  });

  it("applies rule 7's sessions part when the config lists users with sessions", async () => {
    const { violations } = await runStackPolicy(keyPermissionDependencies, stack(), config({ usersWithSessions: ["alice"] }));
    expect(violations.map((v) => v.message)).toEqual([expect.stringMatching(/^The API key breaks rule 7: 'Users Delete' needs 'Sessions Delete'/)]);
  });

  it("Global Admin breaks no rule", async () => {
    expect(await runStackPolicy(keyPermissionDependencies, stack(), config({ permissions: ["Global Admin"], usersWithSessions: ["alice"] }))).toEqual({
      violations: [],
    });
  });
});

describe("least-privilege", () => {
  it("says nothing when the key holds exactly what the stack needs", async () => {
    expect(await runStackPolicy(leastPrivilegePolicy, stack(), config({ globalAdminUserIds: [] }))).toEqual({ violations: [] });
  });

  it("reports what to drop in its first line, then the minimal set in a list", async () => {
    const { violations } = await runStackPolicy(leastPrivilegePolicy, stack(), config({ permissions: [...NEEDED, "Webfilters View", "Global Admin"] }));
    expect(violations).toHaveLength(1);
    const [first, ...details] = violations[0].message.split("\n");
    expect(first).toBe("Drop 2 permissions the stack does not need: 'Webfilters View', 'Global Admin'.");
    expect(details).toEqual([
      expect.stringMatching(
        /^- Needed \(closed under the dependency rules\) by the stack's Kasm resources: 'Users View', 'Users Modify', 'Users Create', 'Users Delete', 'Groups View', 'Groups Modify'/,
      ),
    ]);
  });

  it("keeps a wide key's first line to one short line, listing what to drop below it", async () => {
    const wide = [...NEEDED, "Webfilters View", "Webfilters Modify", "Images View", "Images Modify", "Zones View", "Zones Modify", "Agents View"];
    const { violations } = await runStackPolicy(leastPrivilegePolicy, stack(), config({ permissions: wide, lookups: [] }));
    const [first, ...details] = violations[0].message.split("\n");
    expect(first).toBe("Drop 7 permissions the stack does not need (listed below).");
    expect(details).toContainEqual(
      "- Not needed: 'Webfilters View', 'Webfilters Modify', 'Images View', 'Images Modify', 'Zones View', 'Zones Modify', 'Agents View'",
    );
    for (const line of violations[0].message.split("\n")) expect(line.length).toBeLessThan(400);
  });

  it("says what to grant a new key when the config gives no permissions, and what it would need if undecided facts hold", async () => {
    const { violations } = await runStackPolicy(leastPrivilegePolicy, stack(), { systemGroupIds: undefined });
    expect(violations).toHaveLength(1);
    const lines = violations[0].message.split("\n");
    expect(lines[0]).toBe("The config gives no permissions: grant a new key the 14 permissions needed below.");
    expect(lines).toContain("- Needed only if facts the pack could not decide hold: 'Users Modify Admin', 'Groups View System', 'Groups Modify System'");
  });

  it("reports a minimal key too with reportWhenMinimal", async () => {
    const { violations } = await runStackPolicy(leastPrivilegePolicy, stack(), config({ reportWhenMinimal: true }));
    expect(violations.map((v) => v.message.split("\n")[0])).toEqual(["The key holds exactly what the stack needs."]);
  });

  describe("and lookups, which policies cannot see", () => {
    // A real program gives a StagingConfig its zone and image from getZoneOutput and getImageOutput.
    const staged: FixtureResource[] = [
      { kind: "StagingConfig", name: "chrome", props: { zoneId: IDS.zone, imageId: IDS.image1, numSessions: 1, expiration: 1 } },
    ];
    const STAGING = ["Staging View", "Staging Create", "Staging Modify", "Staging Delete"];
    const key = (change: Record<string, unknown> = {}) => config({ permissions: [...STAGING, "Images View", "Zones View", "Webfilters View"], ...change });

    it("never calls what a lookup needs unneeded, and says why it keeps it and which lookups need it", async () => {
      const { violations } = await runStackPolicy(leastPrivilegePolicy, staged, key());
      expect(violations).toHaveLength(1);
      const lines = violations[0].message.split("\n");
      expect(lines[0]).toBe("Drop 1 permission the stack does not need: 'Webfilters View'.");
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^- Kept, as lookups the program may call need them: 'Images View' \(getImage, getImages[^)]*\), 'Zones View' \([^)]*getZone, getZones[^)]*\)\. /,
        ),
      );
      expect(lines[lines.length - 1]).toContain(
        "name them in `lookups` ([] for none) to have their permissions counted (what each needs: 'Lookups are invisible to policies' in pulumi-kasm's policy README)",
      );
      // Nothing beyond the lookups' needs: nothing to report.
      expect(await runStackPolicy(leastPrivilegePolicy, staged, key({ permissions: [...STAGING, "Images View", "Zones View"] }))).toEqual({ violations: [] });
    });

    it("with lookups named in the config, counts their needs and advises dropping the rest", async () => {
      const none = (await runStackPolicy(leastPrivilegePolicy, staged, key({ lookups: [] }))).violations[0].message;
      expect(none.split("\n")[0]).toBe("Drop 3 permissions the stack does not need: 'Images View', 'Zones View', 'Webfilters View'.");
      expect(none).not.toContain("Kept");
      const zone = (await runStackPolicy(leastPrivilegePolicy, staged, key({ lookups: ["getZoneOutput"] }))).violations[0].message;
      expect(zone).toContain(
        "- Needed (closed under the dependency rules) by the stack's Kasm resources and the lookups named in lookups (getZone): 'Staging View', 'Staging Modify', 'Staging Create', 'Staging Delete', 'Zones View'",
      );
      expect(zone.split("\n")[0]).toBe("Drop 2 permissions the stack does not need: 'Images View', 'Webfilters View'.");
      const lacking = (await runStackPolicy(leastPrivilegePolicy, staged, key({ permissions: STAGING, lookups: ["getZone", "getImage"] }))).violations[0]
        .message;
      expect(lacking.split("\n")[0]).toBe(
        "Grant the key the 2 permissions it lacks: 'Images View', 'Zones View' (resource-needs-permissions and the lookups named in lookups say which need them).",
      );
    });

    it("a new key: the set, and how to have the lookups counted", async () => {
      const { violations } = await runStackPolicy(leastPrivilegePolicy, staged, key({ permissions: undefined }));
      const lines = violations[0].message.split("\n");
      expect(lines[0]).toBe("The config gives no permissions: grant a new key the 4 permissions needed below.");
      expect(lines[lines.length - 1]).toMatch(/^- Lookups are not counted\. Policies cannot see which lookups the program calls: name them in `lookups`/);
    });

    it("refuses a name that is no lookup, naming it, as one mandatory violation on the stack", async () => {
      const { violations } = await runStackPolicy(leastPrivilegePolicy, staged, key({ lookups: ["getZone", "getImageById"] }));
      expect(violations).toEqual([
        {
          message: expect.stringMatching(/^policy config of 'least-privilege': lookups names 'getImageById', which is no lookup of pulumi-kasm\./),
          urn: undefined,
          enforcementLevel: "mandatory",
        },
      ]);
    });
  });
});
