/**
 * The permissions pack through @pulumi/policy's analyzer machinery, in this process: the pack's
 * policies served by the SDK's own gRPC server, driven as the engine drives it (default
 * enforcement levels, Configure with levels and config, Analyze and AnalyzeStack on the wire).
 * One pack per process: the SDK serves a single pack.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACK_NAME, policies, REGISTRY } from "../../policy/permissions/policies";
import { AnalyzerDriver, secret, servePack, type Diagnostic } from "./analyzer-client";
import { everyPolicyThroughTheAnalyzer } from "./analyzer-coverage";
import { config, NEEDED, PASSWORD, stack, without } from "./fixtures";
import { IDS, type FixtureProvider, type FixtureResource } from "./helpers";

const VERSION = (require("../../policy/permissions/package.json") as { version: string }).version;
let driver: AnalyzerDriver;

beforeAll(async () => {
  driver = await servePack(PACK_NAME, VERSION, policies);
});

afterAll(() => driver?.close());

/** The key config under each policy's name, as a --policy-pack-config file holds it. */
function packConfig(key: Record<string, unknown>, extra: Record<string, Record<string, unknown>> = {}) {
  return Object.fromEntries(REGISTRY.map(({ name }) => [name, { ...key, ...(extra[name] ?? {}) }]));
}

describe("the permissions pack on the analyzer protocol", () => {
  it("describes its policies, their default levels and their config", async () => {
    const info = await driver.info();
    expect([info.name, info.version]).toEqual(["kasm-permissions", "0.1.0"]);
    expect(info.policies.map((p) => [p.name, p.type, p.level, p.required])).toEqual([
      ["key-permission-dependencies", "stack", "advisory", ["permissions"]],
      ["resource-needs-permissions", "stack", "mandatory", ["permissions"]],
      ["read-only-key", "stack", "mandatory", []],
      ["least-privilege", "stack", "advisory", []],
    ]);
    for (const p of info.policies)
      expect(p.configProperties).toEqual(expect.arrayContaining(["permissions", "readOnly", "systemGroupIds", "globalAdminUserIds", "usersWithSessions"]));
  });

  it("reports a missing permission as mandatory, per resource, and the least-privilege summary as advisory", async () => {
    await driver.configure(packConfig(config({ permissions: without("Groups Modify") })));
    const diagnostics = await driver.analyzeStack(stack());
    expect(diagnostics.map((d) => [d.policy, d.level, d.urn.split("::").pop()])).toEqual([
      ["resource-needs-permissions", "mandatory", "alice-devs"],
      ["resource-needs-permissions", "mandatory", "vpn-devs"],
      // A dynamic casting config's preview cannot say whether the change moves it between groups (Groups Modify).
      ["resource-needs-permissions", "advisory", ""],
      ["least-privilege", "advisory", ""],
    ]);
    expect(diagnostics[2].message).toContain(
      "CastConfig 'kiosk': update (update_cast_config) needs 'Groups Modify' if so: could not decide whether this change moves the casting config to another group",
    );
    expect(diagnostics[3].message).toContain(
      "\nGrant the key the 1 permission it lacks: 'Groups Modify' (resource-needs-permissions say which need them).\n- Needed ",
    );
  });

  it("takes enforcement levels from config: advisory, disabled", async () => {
    await driver.configure(
      packConfig(config({ permissions: without("Groups Modify") }), {
        "resource-needs-permissions": { enforcementLevel: "advisory" },
        "least-privilege": { enforcementLevel: "disabled" },
      }),
    );
    const diagnostics = await driver.analyzeStack(stack());
    expect(diagnostics.map((d) => [d.policy, d.level])).toEqual([
      ["resource-needs-permissions", "advisory"],
      ["resource-needs-permissions", "advisory"],
      ["resource-needs-permissions", "advisory"],
    ]);
  });

  it("passes a key that holds what the stack needs", async () => {
    await driver.configure(packConfig(config({ globalAdminUserIds: [] })));
    expect(await driver.analyzeStack(stack())).toEqual([]);
  });

  it("read-only-key flags each resource that writes on AnalyzeStack, on that resource, and can be disabled", async () => {
    await driver.configure(packConfig(config({ readOnly: true })));
    const onKiosk = (await driver.analyzeStack(stack())).filter((d) => d.policy === "read-only-key" && d.urn.endsWith("::kiosk"));
    expect(onKiosk.map((d) => [d.policy, d.level])).toEqual([["read-only-key", "mandatory"]]);
    await driver.configure(packConfig(config({ readOnly: true }), { "read-only-key": { enforcementLevel: "disabled" } }));
    expect((await driver.analyzeStack(stack())).filter((d) => d.policy === "read-only-key")).toEqual([]);
  });

  it("a Read Only key that holds every permission the stack needs gets one mandatory violation per resource, from read-only-key", async () => {
    await driver.configure(packConfig(config({ readOnly: true })));
    const resources = stack();
    const stackWide = (await driver.analyzeStack(resources)).filter((d) => d.level === "mandatory");
    const perResource: Record<string, string[]> = {};
    for (const r of resources) perResource[r.name] = stackWide.filter((d) => d.urn.endsWith(`::${r.name}`)).map((d) => d.policy);
    const writers = Object.entries(perResource).filter(([, policies]) => policies.length > 0);
    expect(writers.length).toBeGreaterThanOrEqual(5);
    for (const [name, policies] of writers) expect([name, policies]).toEqual([name, ["read-only-key"]]);
  });

  it("during preview, an undecidable need is an advisory 'can't run', and decided violations still come", async () => {
    await driver.configure(packConfig(config({ permissions: without("Casting Delete") })));
    const resources = stack((r) => Object.assign(r.find((x) => x.name === "alice-attrs")!, { from: {} }));
    const diagnostics = await driver.analyzeStack(resources);
    const needs = diagnostics.filter((d) => d.policy === "resource-needs-permissions");
    expect(needs.map((d) => d.level)).toEqual(["mandatory", "advisory"]);
    // The SDK puts the policy's description before each violation's message.
    expect(needs[0].message).toMatch(/\nCastConfig 'kiosk' cannot be deleted/);
    expect(needs[1].message).toMatch(
      /^can't run policy 'resource-needs-permissions' from policy pack 'kasm-permissions@v0\.1\.0' during preview: could not decide whether the API key can manage every Kasm resource: UserAttributes 'alice-attrs'/,
    );
  });

  it("a Workspace update: refuses a memory change without Images Modify Resources, naming the resource, the field and the permission; accepts a description change", async () => {
    const IMAGES = ["Images View", "Images Create", "Images Modify", "Images Delete"];
    await driver.configure(packConfig(config({ permissions: [...NEEDED, ...IMAGES] })));
    // What a native preview of an update shows a stack policy: the planned outputs, with what the preview noted.
    const declared = { name: "kasmweb/chrome:1.16.0", friendlyName: "Chrome", memory: 4_000_000_000, description: "A browser" };
    const workspace = (noted: readonly string[]) =>
      stack((r) => r.push({ kind: "Workspace", name: "chrome", form: "native", props: { ...declared, imageId: IDS.image1, resourceFieldsChanging: noted } }));
    const refused = (await driver.analyzeStack(workspace(["memory"]))).filter((d) => d.policy === "resource-needs-permissions");
    expect(refused.map((d) => [d.level, d.urn.split("::").pop()])).toEqual([["mandatory", "chrome"]]);
    expect(refused[0].message).toMatch(
      /Workspace 'chrome' cannot be updated with this API key: update calls update_image \(this change sets memory, compute-related\), which needs 'Images Modify Resources'/,
    );
    expect(refused[0].message).toContain("Grant the key: 'Images Modify Resources'.");
    expect((await driver.analyzeStack(workspace([]))).filter((d) => d.policy === "resource-needs-permissions")).toEqual([]);
    // A dynamic resource's preview shows its new inputs only, the same for a create and an update: not decided, and the words say why.
    const dynamic = (await driver.analyzeStack(stack((r) => r.push({ kind: "Workspace", name: "chrome", props: declared })))).filter(
      (d) => d.policy === "resource-needs-permissions",
    );
    expect(dynamic.map((d) => d.level)).toEqual(["advisory"]);
    expect(dynamic[0].message).toContain(
      "Workspace 'chrome': update (update_image) needs 'Images Modify Resources' if so: could not decide whether this change or a later one touches a compute-related field it declares",
    );
    expect(dynamic[0].message).toContain(
      "a dynamic resource's preview shows a policy its new inputs only; the native provider's preview of an update says what it changes",
    );
  });

  it("never prints secrets the engine sends", async () => {
    await driver.configure(packConfig(config({ permissions: [], readOnly: true })));
    const resources = stack((r) => Object.assign(r[0].props, { password: secret(PASSWORD) }));
    const diagnostics = await driver.analyzeStack(resources);
    expect(diagnostics.length).toBeGreaterThan(0);
    for (const d of diagnostics) expect(d.message).not.toContain(PASSWORD);
  });

  it("a config it cannot use is one mandatory violation on the stack, whatever the levels and the order resources register in", async () => {
    // The same mistake under every policy's name, as the README's kasm-key.json writes it; the two advisory policies stay advisory.
    for (const mistake of [{ permissions: [...NEEDED, "Users Veiw"] }, { readonly: true }]) {
      await driver.configure(packConfig(config({ ...mistake, globalAdminUserIds: [IDS.admin1] })));
      const seen = new Set<string>();
      for (const order of shuffles(stack(), 4)) seen.add(JSON.stringify(await driver.analyzeStack(order)));
      // The CLI registers resources in parallel: whatever the order, the same verdict.
      expect(seen.size).toBe(1);
      const diagnostics = JSON.parse([...seen][0]) as Diagnostic[];
      // Reported at the mandatory level through reportViolation's object form ({ message, enforcementLevel }), which
      // @pulumi/policy's server accepts though its types do not declare it: this fails if that form goes away.
      expect(diagnostics.map((d) => [d.policy, d.level, d.urn])).toEqual([["key-permission-dependencies", "mandatory", ""]]);
      expect(diagnostics[0].message).toMatch(
        "permissions" in mistake
          ? /^policy config of 'key-permission-dependencies': unknown permission name 'Users Veiw' \(did you mean 'Users View'\?\)/
          : /^policy config of 'key-permission-dependencies': 'readonly' \(did you mean 'readOnly'\?\) is not a known property/,
      );
      expect(diagnostics[0].message).toContain("correct it under every policy's name that repeats it");
    }
  });

  it("a config problem of one policy alone is reported by that policy, at the mandatory level though the policy is advisory", async () => {
    await driver.configure(packConfig(config({ globalAdminUserIds: [IDS.admin1] }), { "least-privilege": { lookups: ["getImageById"] } }));
    const diagnostics = await driver.analyzeStack(stack());
    expect(diagnostics.map((d) => [d.policy, d.level, d.urn])).toEqual([["least-privilege", "mandatory", ""]]);
    expect(diagnostics[0].message).toMatch(/^policy config of 'least-privilege': lookups names 'getImageById', which is no lookup of pulumi-kasm/);
    // The next run with the same config reports it again.
    expect(await driver.analyzeStack(stack())).toEqual(diagnostics);
  });
});

/** The stack with its Kasm resources in the native provider's form, each on `provider` (the default one when left out). */
function nativeStack(provider?: FixtureProvider): FixtureResource[] {
  return stack().map((r) => (r.kind === "Other" ? r : { ...r, form: "native" as const, ...(provider ? { provider } : {}) }));
}

/** What a diagnostic says, without the type token in its URN: the same for both forms of a resource. */
const said = (d: Diagnostic) => [d.policy, d.level, d.urn.split("::").pop(), d.message];

/** An explicit provider as the engine describes it: its API key secret unwrapped, as policies receive it. */
const PROVIDER_SECRET = "provider-api-key-secret-0f9e8d7c";
const production: FixtureProvider = { name: "production", props: { baseUrl: "https://kasm.example.com", apiKey: "prod-key", apiKeySecret: PROVIDER_SECRET } };

describe("native resources (kasm:index:<Kind>), judged as the dynamic ones", () => {
  it("a missing permission gets the same diagnostics, naming the resource and the permission", async () => {
    await driver.configure(packConfig(config({ permissions: without("Groups Modify") })));
    const dynamic = await driver.analyzeStack(stack());
    const native = await driver.analyzeStack(nativeStack());
    expect(native.map(said)).toEqual(dynamic.map(said));
    expect(native.filter((d) => d.policy === "resource-needs-permissions" && d.level === "mandatory").map((d) => d.urn)).toEqual([
      "urn:pulumi:ci::kasm-app::kasm:index:GroupMembership::alice-devs",
      "urn:pulumi:ci::kasm-app::kasm:index:EgressProviderMapping::vpn-devs",
    ]);
    expect(native[0].message).toMatch(/GroupMembership 'alice-devs' cannot be [^\n]*'Groups Modify'/);
  });

  it("read-only-key flags a native resource as it does the dynamic one", async () => {
    await driver.configure(packConfig(config({ readOnly: true })));
    const onlyReadOnly = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.policy === "read-only-key");
    const dynamic = onlyReadOnly(await driver.analyzeStack(stack()));
    expect(onlyReadOnly(await driver.analyzeStack(nativeStack())).map(said)).toEqual(dynamic.map(said));
    expect(dynamic.length).toBeGreaterThan(0);
  });

  it("a native resource on an explicit provider named 'production' is judged against connections.production's key", async () => {
    // The default installation's key holds everything; production's lacks Groups Modify.
    await driver.configure(packConfig(config({ connections: { production: config({ permissions: without("Groups Modify") }) } })));
    const onProduction = await driver.analyzeStack(nativeStack(production));
    const needs = onProduction.filter((d) => d.policy === "resource-needs-permissions" && d.level === "mandatory");
    expect(needs.map((d) => [d.level, d.urn.split("::").pop()])).toEqual([
      ["mandatory", "alice-devs"],
      ["mandatory", "vpn-devs"],
    ]);
    for (const d of needs) expect(d.message).toMatch(/the API key of connection 'production'[^\n]*'Groups Modify'/);
    // The same resources on the default provider are judged against the top level's key, which suffices.
    expect((await driver.analyzeStack(nativeStack())).filter((d) => d.policy === "resource-needs-permissions")).toEqual([]);
    // And the other way round: production's key suffices, the default installation's does not matter.
    await driver.configure(packConfig(config({ permissions: [], connections: { production: config() } })));
    expect((await driver.analyzeStack(nativeStack(production))).filter((d) => d.level === "mandatory")).toEqual([]);
  });

  it("a native resource whose provider the config does not describe is reported, naming the provider as its connection", async () => {
    await driver.configure(packConfig(config()));
    const needs = (await driver.analyzeStack(nativeStack(production))).filter((d) => d.policy === "resource-needs-permissions");
    expect(needs.length).toBeGreaterThan(0);
    expect(needs[0].message).toContain(`add "connections": {"production": {"permissions": [...]}}`);
  });

  it("never prints the provider's properties (its API key secret comes unwrapped)", async () => {
    for (const key of [
      config({ permissions: [], readOnly: true }),
      config({ connections: { production: config({ permissions: [], readOnly: true }) } }),
      config(),
    ]) {
      await driver.configure(packConfig(key));
      const resources = nativeStack(production);
      const diagnostics = [...(await driver.analyzeStack(resources)), ...(await Promise.all(resources.map((r) => driver.analyze(r)))).flat()];
      expect(diagnostics.length).toBeGreaterThan(0);
      for (const d of diagnostics) expect(d.message).not.toContain(PROVIDER_SECRET);
    }
  });
});

everyPolicyThroughTheAnalyzer(() => driver, REGISTRY, {
  "key-permission-dependencies": { config: packConfig(config({ permissions: without("Users View") })), resources: stack() },
  "resource-needs-permissions": { config: packConfig(config({ permissions: without("Groups Modify") })), resources: stack() },
  "read-only-key": { config: packConfig(config({ readOnly: true })), resources: stack() },
  "least-privilege": { config: packConfig(config({ permissions: without("Groups Modify") })), resources: stack() },
});

/** `count` orders of `items`: the first as given, the others shuffled by a fixed seed, so that a failure replays. */
function shuffles<T>(items: readonly T[], count: number): T[][] {
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return (seed - 1) / 2147483646;
  };
  return Array.from({ length: count }, (_, n) => {
    const order = [...items];
    if (n > 0)
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
    return order;
  });
}
