/**
 * The policy packs with several installations (kasm.Connection): rules that compare or count
 * objects do so within one installation, and the permissions pack reads a key per connection
 * from `connections`, refusing a name that cannot name one. Called directly, from a compliant
 * stack, one field changed per case; the whole path through the analyzer is in
 * test/e2e/two-installations.test.ts.
 */
import { describe, expect, it } from "vitest";
import { conflictingDeclarations } from "../../policy/hardening/conflicting-declarations";
import { stagingLicenseCapacity } from "../../policy/hardening/staging-license-capacity";
import { keyPermissionDependencies } from "../../policy/permissions/key-permission-dependencies";
import { leastPrivilegePolicy } from "../../policy/permissions/least-privilege";
import { resourceNeedsPermissions } from "../../policy/permissions/resource-needs-permissions";
import { IDS, runStackPolicy, type FixtureResource } from "./helpers";
import { config, stack } from "./fixtures";

const staging = (name: string, numSessions: number, connection?: string): FixtureResource => ({
  kind: "StagingConfig",
  name,
  props: { zoneId: IDS.zone, imageId: IDS.image1, numSessions, expiration: 1, ...(connection ? { connection } : {}) },
});

describe("conflicting-declarations, per installation", () => {
  it("one zone and image in two installations are two staging configs; twice in one installation, a conflict", async () => {
    expect(await runStackPolicy(conflictingDeclarations, [staging("chrome-staging", 1), staging("chrome-prod", 1, "prod")])).toEqual({ violations: [] });
    const { violations } = await runStackPolicy(conflictingDeclarations, [staging("chrome-a", 1, "prod"), staging("chrome-b", 1, "prod")]);
    expect(violations.map((v) => v.message)).toEqual([expect.stringMatching(/^StagingConfig 'chrome-a' and StagingConfig 'chrome-b' both manage/)]);
  });
});

describe("staging-license-capacity, per installation", () => {
  it("counts each installation's staged sessions against its own license", async () => {
    const resources = [staging("a", 4), staging("b", 4, "prod"), staging("c", 3, "prod")];
    // Community for the default installation (4 of 5): fine; 7 staged in prod against its 6.
    const { violations } = await runStackPolicy(stagingLicenseCapacity, resources, {
      license: "community",
      connections: { prod: { license: "per-concurrent-session", concurrentSessions: 6 } },
    });
    expect(violations.map((v) => v.urn!.split("::").pop())).toEqual(["b", "c"]);
    expect(violations[0].message).toContain(
      "the stack's staging configs of connection 'prod' keep 7 sessions staged, more than the license's 6 concurrent sessions",
    );
    // An installation the config gives no license for is not counted.
    expect(await runStackPolicy(stagingLicenseCapacity, resources, { license: "community" })).toEqual({ violations: [] });
  });
});

describe("the permissions pack's connections", () => {
  it("a connection name that kasm.Connection would refuse is a config error naming it, one mandatory violation on the stack", async () => {
    const { violations } = await runStackPolicy(resourceNeedsPermissions, stack(), { ...config(), connections: { "Prod Kasm": { permissions: [] } } });
    expect(violations).toEqual([
      {
        message: expect.stringMatching(/connections\.Prod Kasm: a connection name is lower-case letters, digits and hyphens/),
        urn: undefined,
        enforcementLevel: "mandatory",
      },
    ]);
  });

  it("a native resource's connection is its explicit provider's resource name, which may be spelt as a program names resources", async () => {
    const onProvider = (name: string): FixtureResource[] =>
      stack().map((r) => (r.kind === "Other" ? r : { ...r, form: "native" as const, provider: { name } }));
    const { violations } = await runStackPolicy(resourceNeedsPermissions, onProvider("kasmProd"), {
      ...config(),
      connections: { kasmProd: { ...config(), permissions: [] } },
    });
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((v) => v.message.includes("the API key of connection 'kasmProd'"))).toBe(true);
    expect(
      await runStackPolicy(resourceNeedsPermissions, onProvider("kasm_prod"), { ...config({ permissions: [] }), connections: { kasm_prod: config() } }),
    ).toEqual({ violations: [] });
  });

  it("an unknown permission of a connection's key is named with its connection", async () => {
    const { violations } = await runStackPolicy(resourceNeedsPermissions, stack(), { ...config(), connections: { prod: { permissions: ["Users Veiw"] } } });
    expect(violations.map((v) => [v.message, v.enforcementLevel])).toEqual([
      [
        expect.stringContaining(
          "policy config of 'resource-needs-permissions', connections.prod: unknown permission name 'Users Veiw' (did you mean 'Users View'?)",
        ),
        "mandatory",
      ],
    ]);
  });

  it("key-permission-dependencies checks each connection's key, naming the connection", async () => {
    const { violations } = await runStackPolicy(keyPermissionDependencies, stack(), { ...config(), connections: { prod: { permissions: ["Users Modify"] } } });
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((v) => v.message.startsWith("The API key of connection 'prod' breaks "))).toBe(true);
  });

  it("least-privilege reports each installation's key against its own resources", async () => {
    const resources = [staging("chrome-staging", 1), staging("chrome-prod", 1, "prod")];
    const { violations } = await runStackPolicy(leastPrivilegePolicy, resources, {
      permissions: ["Staging View", "Staging Create", "Staging Modify", "Staging Delete", "Images View", "Zones View"],
      lookups: [],
      connections: {
        prod: { permissions: ["Staging View", "Staging Create", "Staging Modify", "Staging Delete", "Casting View", "Images View", "Zones View"] },
      },
    });
    const prod = violations.filter((v) => v.message.startsWith("Connection 'prod': "));
    expect(prod).toHaveLength(1);
    // Only prod's key holds Casting View, which neither a staging config nor a lookup needs.
    expect(prod[0].message.split("\n")[0]).toBe("Connection 'prod': drop 1 permission the stack does not need: 'Casting View'.");
    expect(violations.filter((v) => !v.message.startsWith("Connection ")).every((v) => !v.message.includes("'Casting View'"))).toBe(true);
  });

  it("in a fleet, every report names its installation, the default one too", async () => {
    const resources = [staging("chrome-staging", 1), staging("chrome-prod", 1, "prod")];
    const STAGING = ["Staging View", "Staging Create", "Staging Modify", "Staging Delete"];
    const wide = { permissions: [...STAGING, "Casting View"], lookups: [] };
    const least = await runStackPolicy(leastPrivilegePolicy, resources, { ...wide, connections: { prod: { permissions: wide.permissions } } });
    expect(least.violations.map((v) => v.message.split("\n")[0]).sort()).toEqual([
      "Connection 'prod': drop 1 permission the stack does not need: 'Casting View'.",
      "The default installation (kasm:): drop 1 permission the stack does not need: 'Casting View'.",
    ]);
    // One installation alone needs no name.
    const alone = await runStackPolicy(leastPrivilegePolicy, [staging("chrome-staging", 1)], wide);
    expect(alone.violations.map((v) => v.message.split("\n")[0])).toEqual(["Drop 1 permission the stack does not need: 'Casting View'."]);
    const rules = await runStackPolicy(keyPermissionDependencies, resources, {
      permissions: ["Users Modify"],
      connections: { prod: { permissions: ["Users Modify"] } },
    });
    expect(rules.violations.map((v) => v.message.replace(/ breaks .*/, "")).sort()).toEqual([
      "The API key of connection 'prod'",
      "The API key of the default installation (kasm:)",
    ]);
  });
});
