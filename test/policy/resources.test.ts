/**
 * The shared table of what each kind's provider calls (permissions/kind-table.ts): its
 * coverage of the registry, its rows' contextual needs, and judging a key against them.
 */
import { describe, expect, it } from "vitest";
import { kinds, providers } from "../../provider";
import { packageSchema } from "../../provider/native/schema";
import { connectionOf } from "../../policy/shared/kasm";
import { typeToken } from "../../sdk/provider";
import {
  COMPUTE_SETTINGS_KINDS,
  judgeNeeds,
  KASM_KINDS,
  kasmTypeToken,
  kindAndFormOfTypeToken,
  kindOfTypeToken,
  knowledgeFromFacts,
  LIFECYCLE_STEPS,
  minimalPermissions,
  NATIVE_PROVIDER_TYPE,
  resourcePermissionNeeds,
  type KasmKind,
  type ResourceNeeds,
} from "../../permissions";
import { IDS, UNKNOWN, UNKNOWN_BOOL } from "./helpers";

const KNOWN = knowledgeFromFacts({
  allUsersGroupId: IDS.allUsers,
  administratorsGroupId: IDS.administrators,
  globalAdminUsers: [IDS.admin1],
});

const ops = (needs: ResourceNeeds, step: (typeof LIFECYCLE_STEPS)[number]) => needs[step].calls.map((c) => c.operation);
const perms = (needs: ResourceNeeds, step: (typeof LIFECYCLE_STEPS)[number]) => needs[step].requirements.flatMap((r) => r.all);

describe("the table covers every kind", () => {
  it("has a row for every kind the provider registry serves, and no other", () => {
    expect([...KASM_KINDS].sort()).toEqual(Object.keys(providers).sort());
  });

  it("matches resources by the SDK's type tokens", () => {
    for (const kind of KASM_KINDS) {
      expect(kasmTypeToken(kind)).toBe(typeToken(kind as keyof typeof providers));
      expect(kindOfTypeToken(kasmTypeToken(kind))).toBe(kind);
    }
    expect(kindOfTypeToken("pulumi-nodejs:dynamic/kasm:Nope")).toBeUndefined();
    expect(kindOfTypeToken("aws:s3/bucket:Bucket")).toBeUndefined();
  });

  it("matches resources by the native provider's type tokens too, as the same kind", () => {
    const schema = JSON.parse(packageSchema("0.0.0", kinds)) as { resources: Record<string, unknown> };
    for (const kind of KASM_KINDS) {
      const native = kasmTypeToken(kind, "native");
      expect(Object.keys(schema.resources)).toContain(native);
      expect(kindOfTypeToken(native)).toBe(kind);
      expect(kindAndFormOfTypeToken(native)).toEqual({ kind, form: "native" });
      expect(kindAndFormOfTypeToken(kasmTypeToken(kind))).toEqual({ kind, form: "dynamic" });
      // Asked for one form, the other's token is not that form's.
      expect(kindOfTypeToken(native, "dynamic")).toBeUndefined();
      expect(kindOfTypeToken(kasmTypeToken(kind), "native")).toBeUndefined();
    }
    expect(kindOfTypeToken("kasm:index:Nope")).toBeUndefined();
    expect(kindOfTypeToken(NATIVE_PROVIDER_TYPE)).toBeUndefined();
  });

  it("places a resource: a dynamic one by its connection input, a native one by its explicit provider's name", () => {
    const provider = (name: string) => ({ type: NATIVE_PROVIDER_TYPE, name });
    expect(connectionOf({ type: kasmTypeToken("User"), props: { connection: "prod" } })).toBe("prod");
    expect(connectionOf({ type: kasmTypeToken("User"), props: {} })).toBeUndefined();
    expect(connectionOf({ type: kasmTypeToken("User", "native"), props: {}, provider: provider("production") })).toBe("production");
    // The engine's default provider (`default`, `default_0_1_0`) is the default installation.
    for (const name of ["default", "default_0_1_0"])
      expect(connectionOf({ type: kasmTypeToken("User", "native"), props: {}, provider: provider(name) })).toBeUndefined();
    expect(connectionOf({ type: kasmTypeToken("User", "native"), props: {} })).toBeUndefined();
    // A native resource has no connection input: one in its props does not place it.
    expect(connectionOf({ type: kasmTypeToken("User", "native"), props: { connection: "prod" }, provider: provider("production") })).toBe("production");
  });

  it("says only Workspace touches image compute settings: no other kind needs Images Modify Resources, and a Workspace only when it sets one", () => {
    expect(COMPUTE_SETTINGS_KINDS).toEqual(["Workspace"]);
    for (const kind of KASM_KINDS) {
      const needs = resourcePermissionNeeds(kind, {}, KNOWN);
      for (const step of LIFECYCLE_STEPS) expect(perms(needs, step)).not.toContain("Images Modify Resources");
    }
    const sized = resourcePermissionNeeds("Workspace", { memory: 2_000_000_000 }, KNOWN);
    // A create needs Images Create alone (the product checks no field of it).
    expect(perms(sized, "create")).not.toContain("Images Modify Resources");
    // Being created, a workspace has no state to compare with: whether a later update sets memory is undecided, named.
    expect(perms(sized, "update")).not.toContain("Images Modify Resources");
    expect(sized.update.calls.flatMap((call) => call.undecided.flatMap((fact) => fact.adds))).toContain("Images Modify Resources");
  });
});

describe("a Workspace update: what its check says the change sets (resourceFieldsChanging)", () => {
  const declared = { name: "kasmweb/chrome:1.16.0", friendlyName: "Chrome", memory: 4_000_000_000, description: "A browser" };
  const updateImage = (props: Record<string, unknown>) =>
    resourcePermissionNeeds("Workspace", props, KNOWN).update.calls.find((c) => c.operation === "update_image")!;

  it("a compute-related field listed: Images Modify and Images Modify Resources, the call naming the field", () => {
    const call = updateImage({ ...declared, resourceFieldsChanging: ["memory"] });
    expect(call.requirement.all).toEqual(expect.arrayContaining(["Images Modify", "Images Modify Resources"]));
    expect(call.undecided).toEqual([]);
    expect(call.condition).toBe("this change sets memory, compute-related");
  });

  it("an empty list: either permission lets the update in, decided, though compute fields are declared", () => {
    const call = updateImage({ ...declared, resourceFieldsChanging: [] });
    expect(call.requirement.all).not.toContain("Images Modify Resources");
    expect(call.requirement.oneOf).toEqual(["Images Modify", "Images Modify Resources"]);
    expect(call.undecided).toEqual([]);
  });

  it("no list and the image's id known: the state's outputs of a workspace this run does not change, decided", () => {
    expect(updateImage({ ...declared, imageId: IDS.image1 }).undecided).toEqual([]);
    expect(updateImage({ ...declared, imageId: IDS.image1 }).requirement.all).not.toContain("Images Modify Resources");
  });

  it("a list not known yet (a compute value not known during preview): undecided, saying why", () => {
    const call = updateImage({ ...declared, resourceFieldsChanging: UNKNOWN });
    expect(call.undecided.map((u) => [u.adds, u.fact])).toEqual([
      [["Images Modify", "Images Modify Resources"], expect.stringContaining("resourceFieldsChanging depends on a value not known yet")],
    ]);
  });
});

describe("a CastConfig update: whether its check says the change moves the config between groups (groupChanging)", () => {
  const declared = { castingConfigName: "Lobby", key: "lobby", groupId: IDS.devs };
  const updateCast = (props: Record<string, unknown>) =>
    resourcePermissionNeeds("CastConfig", props, KNOWN).update.calls.find((c) => c.operation === "update_cast_config")!;

  it("a move: Groups Modify on top of Casting Modify, decided", () => {
    const call = updateCast({ ...declared, groupChanging: true });
    expect(call.requirement.all).toEqual(["Casting Modify", "Groups Modify"]);
    expect(call.undecided).toEqual([]);
  });

  it("a move to a system group: Groups Modify System too", () => {
    expect(updateCast({ ...declared, groupId: IDS.allUsers, groupChanging: true }).requirement.all).toEqual([
      "Casting Modify",
      "Groups Modify",
      "Groups Modify System",
    ]);
  });

  it("no move, or the state's outputs of a config this run does not change: Casting Modify alone", () => {
    expect(updateCast({ ...declared, groupChanging: false }).requirement.all).toEqual(["Casting Modify"]);
    expect(updateCast(declared).requirement.all).toEqual(["Casting Modify"]);
  });

  it("a group not known yet (preview): undecided, saying why", () => {
    const call = updateCast({ ...declared, groupId: UNKNOWN, groupChanging: UNKNOWN });
    expect(call.undecided.map((u) => u.fact)).toContainEqual(expect.stringContaining("groupChanging depends on a value not known yet"));
    expect(call.undecided.flatMap((u) => u.adds)).toContain("Groups Modify");
  });
});

describe("rows", () => {
  // Create looks the username up first, with adopt or without (provider/resources/framework/define-kind.ts, findFirst).
  it("User: get_user and create_user, get_user, update_user, delete_user; adopt adds the update", () => {
    const plain = resourcePermissionNeeds("User", { username: "ada" }, KNOWN);
    expect([ops(plain, "create"), ops(plain, "read"), ops(plain, "update"), ops(plain, "delete")]).toEqual([
      ["get_user", "create_user"],
      ["get_user"],
      ["update_user"],
      ["delete_user"],
    ]);
    expect(perms(plain, "delete")).toEqual(["Users Delete", "Users Modify"]);
    const adopting = resourcePermissionNeeds("User", { username: "ada", adopt: true }, KNOWN);
    expect(ops(adopting, "create")).toEqual(["get_user", "update_user", "create_user"]);
  });

  it("CastConfig: an adopting create may bring an existing config to the program, which needs Casting Modify", () => {
    const plain = resourcePermissionNeeds("CastConfig", { castingConfigName: "kiosk" }, KNOWN);
    expect(ops(plain, "create")).toEqual(["create_cast_config"]);
    expect(perms(plain, "create")).not.toContain("Casting Modify");
    const adopting = resourcePermissionNeeds("CastConfig", { castingConfigName: "kiosk", adopt: true }, KNOWN);
    expect(ops(adopting, "create")).toEqual(["update_cast_config", "create_cast_config"]);
    expect(perms(adopting, "create")).toContain("Casting Modify");
  });

  it("User: deleting needs Sessions Delete only with forceDelete or a user listed with sessions", () => {
    expect(perms(resourcePermissionNeeds("User", { username: "ada" }, KNOWN), "delete")).not.toContain("Sessions Delete");
    expect(perms(resourcePermissionNeeds("User", { username: "ada", forceDelete: true }, KNOWN), "delete")).toContain("Sessions Delete");
    const listed = knowledgeFromFacts({ usersWithSessions: ["Ada"], globalAdminUsers: [] });
    expect(perms(resourcePermissionNeeds("User", { username: "ada" }, listed), "delete")).toContain("Sessions Delete");
    const unsure = resourcePermissionNeeds("User", { username: "ada", forceDelete: UNKNOWN_BOOL }, KNOWN);
    expect(unsure.delete.calls[0].undecided.map((u) => u.adds)).toEqual([["Sessions Delete"]]);
  });

  it("GroupMembership: Administrators needs Groups Modify System; without systemGroupIds that is undecided", () => {
    const admins = resourcePermissionNeeds("GroupMembership", { userId: IDS.plain1, groupId: IDS.administrators }, KNOWN);
    // Create reads the user's groups first, to refuse a membership that exists (provider/resources/group-membership.ts).
    expect(perms(admins, "create")).toEqual(["Users View", "Groups View", "Groups Modify", "Groups Modify System"]);
    expect(perms(admins, "delete")).toEqual(["Groups Modify", "Groups Modify System"]);
    expect(perms(admins, "read")).toEqual(["Users View", "Groups View"]);
    const devs = resourcePermissionNeeds("GroupMembership", { userId: IDS.plain1, groupId: IDS.devs }, KNOWN);
    expect(perms(devs, "create")).toEqual(["Users View", "Groups View", "Groups Modify"]);
    const blind = resourcePermissionNeeds("GroupMembership", { userId: IDS.plain1, groupId: IDS.devs }, knowledgeFromFacts({}));
    expect(blind.create.calls[1].undecided).toEqual([expect.objectContaining({ adds: ["Groups Modify System"] })]);
  });

  it("UserGroups: taking a Global Admin out of Administrators needs Groups Modify System; a new user has nothing to remove", () => {
    const demoted = resourcePermissionNeeds("UserGroups", { userId: IDS.admin1, groupIds: [IDS.devs] }, KNOWN);
    const removal = demoted.create.calls.find((c) => c.operation === "remove_user_group")!;
    expect(removal.requirement.all).toContain("Groups Modify System");
    const kept = resourcePermissionNeeds("UserGroups", { userId: IDS.admin1, groupIds: [IDS.devs, IDS.administrators] }, KNOWN);
    expect(kept.create.calls.find((c) => c.operation === "remove_user_group")!.requirement.all).toEqual(["Groups Modify"]);
    const fresh = knowledgeFromFacts({ newUsers: ["stack-user:u"], globalAdminUsers: [] });
    const created = resourcePermissionNeeds("UserGroups", { userId: "stack-user:u", groupIds: [] }, fresh);
    expect(ops(created, "create")).toEqual(["get_user"]);
    expect(ops(created, "delete")).toEqual([]);
    expect(created.create.calls[0].requirement.all).toEqual(["Users View", "Groups View"]);
  });

  it("UserAttributes: no attribute declared, no write; Global Admin targets need Users Modify Admin", () => {
    const readOnly = resourcePermissionNeeds("UserAttributes", { userId: IDS.plain1 }, KNOWN);
    expect([ops(readOnly, "create"), ops(readOnly, "update"), ops(readOnly, "delete")]).toEqual([["get_attributes"], [], []]);
    const admin = resourcePermissionNeeds("UserAttributes", { userId: IDS.admin1, showTips: false }, KNOWN);
    expect(perms(admin, "update")).toEqual(["Users Modify", "Users Modify Admin"]);
  });

  it("UserServerAssignment reads assigned servers (Servers View) and needs Servers Modify and Users Modify", () => {
    const needs = resourcePermissionNeeds("UserServerAssignment", { userId: IDS.plain1, serverId: IDS.server1 }, KNOWN);
    expect(perms(needs, "create")).toEqual(["Users View", "Servers View", "Servers Modify", "Users Modify"]);
    expect(ops(needs, "update")).toEqual([]);
  });

  // Each egress create looks its key up first (provider/resources/framework/define-kind.ts, findFirst): View as well.
  // A mapping of the provider and target that exists is taken over, adopt or not: its create may update it, with the same permissions.
  it("egress mappings and credentials need the Modify permission of their target, by kind", () => {
    const mapping = (props: Record<string, unknown>) => resourcePermissionNeeds("EgressProviderMapping", { egressProviderId: IDS.zone, ...props }, KNOWN);
    const target = (props: Record<string, unknown>) => [...new Set(perms(mapping(props), "create"))];
    for (const adopt of [undefined, false, true])
      expect(ops(mapping({ userId: IDS.plain1, ...(adopt === undefined ? {} : { adopt }) }), "create")).toEqual([
        "get_egress_provider_mapping",
        "update_egress_provider_mapping",
        "create_egress_provider_mapping",
      ]);
    expect(target({ userId: IDS.plain1 })).toEqual(["Egress Providers View", "Egress Providers Modify", "Users Modify"]);
    expect(target({ userId: IDS.admin1 })).toEqual(["Egress Providers View", "Egress Providers Modify", "Users Modify", "Users Modify Admin"]);
    expect(target({ groupId: IDS.devs })).toEqual(["Egress Providers View", "Egress Providers Modify", "Groups Modify"]);
    expect(target({ groupId: IDS.allUsers })).toEqual(["Egress Providers View", "Egress Providers Modify", "Groups Modify", "Groups Modify System"]);
    expect(target({ imageId: IDS.image1 })).toEqual(["Egress Providers View", "Egress Providers Modify", "Images Modify"]);
    const credential = resourcePermissionNeeds("EgressCredential", { egressProviderId: IDS.zone, name: "c", imageId: IDS.image1 }, KNOWN);
    expect([ops(credential, "create"), ops(credential, "update"), ops(credential, "delete")]).toEqual([
      ["get_egress_credentials", "create_egress_credential"],
      [],
      [],
    ]);
    expect(perms(credential, "create")).toEqual(["Egress Credentials View", "Egress Credentials Create", "Egress Providers Modify", "Images Modify"]);
  });

  it("kinds Kasm cannot read or remove call nothing in those steps", () => {
    const cast = resourcePermissionNeeds("CastConfig", {}, KNOWN);
    expect([ops(cast, "create"), ops(cast, "read"), ops(cast, "update"), ops(cast, "delete")]).toEqual([
      ["create_cast_config"],
      [],
      ["update_cast_config"],
      ["delete_cast_config"],
    ]);
    const license = resourcePermissionNeeds("LicenseActivation", {}, KNOWN);
    expect(LIFECYCLE_STEPS.map((s) => ops(license, s))).toEqual([["activate"], [], [], []]);
  });
});

describe("Global Admin over the stack's life", () => {
  const facts = knowledgeFromFacts({
    globalAdminUsers: [],
    newUsers: ["stack-user:u"],
    adminAfterStack: new Map([["stack-user:u", true]]),
  });
  const at = (kind: KasmKind, step: (typeof LIFECYCLE_STEPS)[number]) => facts.userIsGlobalAdmin("stack-user:u", { kind, step });

  it("a user the stack puts into Administrators holds it for its update and for other resources, not for its create and delete", () => {
    expect(at("User", "create")).toBe(false);
    expect(at("User", "update")).toBe(true);
    expect(at("User", "delete")).toBe(false);
    expect(at("UserAttributes", "update")).toBe(true);
    expect(at("EgressProviderMapping", "delete")).toBe(true);
    expect(at("UserGroups", "create")).toBe(false);
  });

  it("without globalAdminUserIds an existing user's Global Admin is not known", () => {
    expect(knowledgeFromFacts({}).userIsGlobalAdmin(IDS.plain1, { kind: "UserAttributes", step: "update" })).toBeUndefined();
    expect(KNOWN.userIsGlobalAdmin(IDS.plain1, { kind: "UserAttributes", step: "update" })).toBe(false);
    expect(KNOWN.userIsGlobalAdmin(IDS.admin1.toUpperCase(), { kind: "UserAttributes", step: "update" })).toBe(true);
  });
});

describe("judging a key", () => {
  const membership = resourcePermissionNeeds("GroupMembership", { userId: IDS.plain1, groupId: IDS.administrators }, KNOWN);

  it("names the missing permissions and what to grant, closed under the dependency rules", () => {
    const verdict = judgeNeeds({ permissions: ["Users View", "Groups View", "Groups Modify"] }, membership);
    expect(verdict.shortfalls.map((s) => [s.step, s.call.operation, s.missing])).toEqual([
      ["create", "add_user_group", ["Groups Modify System"]],
      ["delete", "remove_user_group", ["Groups Modify System"]],
    ]);
    expect(verdict.toGrant).toEqual(["Groups Modify System", "Groups View System"]);
  });

  it("a permission held without its dependency is not in effect", () => {
    const verdict = judgeNeeds({ permissions: ["Users View", "Groups Modify", "Groups Modify System", "Groups View System"] }, membership);
    expect(verdict.shortfalls.map((s) => s.missing)).toEqual([["Groups View"], ["Groups Modify"], ["Groups View"], ["Groups Modify"]]);
    expect(verdict.toGrant).toEqual(["Groups View"]);
  });

  it("Global Admin holds everything; a Read Only key cannot write", () => {
    expect(judgeNeeds({ permissions: ["Global Admin"] }, membership).shortfalls).toEqual([]);
    const readOnly = judgeNeeds({ permissions: ["Global Admin"], readOnly: true }, membership);
    expect(readOnly.shortfalls.map((s) => [s.step, s.refusedAsReadOnly])).toEqual([
      ["create", true],
      ["delete", true],
    ]);
  });

  it("either Servers View or Agents View reads a server", () => {
    const drain = resourcePermissionNeeds("ServerDrain", { serverId: IDS.server1 }, KNOWN);
    expect(judgeNeeds({ permissions: ["Agents View", "Agents Modify"] }, drain).shortfalls).toEqual([]);
    expect(minimalPermissions([drain])).toEqual(new Set(["Agents Modify", "Agents View"]));
  });

  it("the minimal set is closed under the dependency rules", () => {
    const gateway = resourcePermissionNeeds("EgressGateway", { egressProviderId: UNKNOWN, name: "gw" }, KNOWN);
    expect([...minimalPermissions([gateway])].sort()).toEqual(
      [
        "Egress Gateways Create",
        "Egress Gateways Delete",
        "Egress Gateways Modify",
        "Egress Gateways View",
        "Egress Providers Modify",
        "Egress Providers View",
      ].sort(),
    );
  });
});
