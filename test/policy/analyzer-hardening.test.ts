/**
 * The hardening pack through @pulumi/policy's analyzer machinery, in this process: default
 * levels (advisory, one mandatory), levels and config from Configure, resource and stack
 * policies on the wire, and "can't run during preview" for values not known yet.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACK_NAME, policies, REGISTRY } from "../../policy/hardening/policies";
import { AnalyzerDriver, servePack, type Diagnostic } from "./analyzer-client";
import { everyPolicyThroughTheAnalyzer } from "./analyzer-coverage";
import { cast, credential, staging, user } from "./fixtures";
import { IDS, UNKNOWN, UNKNOWN_BOOL, type FixtureProvider, type FixtureResource } from "./helpers";

const VERSION = (require("../../policy/hardening/package.json") as { version: string }).version;
let driver: AnalyzerDriver;

beforeAll(async () => {
  driver = await servePack(PACK_NAME, VERSION, policies);
});

afterAll(() => driver?.close());

const open = cast({ limitIps: false, validUntil: "2001-01-01 00:00:00", requireRecaptcha: false });

describe("the hardening pack on the analyzer protocol", () => {
  it("describes its policies: advisory by default but cast-valid-until-past and conflicting-declarations, each configurable", async () => {
    const info = await driver.info();
    expect(info.name).toBe("kasm-hardening");
    expect(info.policies.filter((p) => p.level === "mandatory").map((p) => p.name)).toEqual(["cast-valid-until-past", "conflicting-declarations"]);
    expect(info.policies.filter((p) => p.type === "stack").map((p) => p.name)).toEqual([
      "anonymous-data-transfer",
      "conflicting-declarations",
      "staging-license-capacity",
    ]);
    for (const p of info.policies) expect(p.configProperties).toContain("exemptResources");
  });

  it("reports each broken rule at its level", async () => {
    await driver.configure({});
    expect((await driver.analyze(open)).map((d) => [d.policy, d.level])).toEqual([
      ["cast-anonymous-ip-limit", "advisory"],
      ["cast-anonymous-recaptcha", "advisory"],
      ["cast-valid-until-past", "mandatory"],
    ]);
  });

  it("takes levels and tuning from config", async () => {
    await driver.configure({
      "cast-anonymous-ip-limit": { enforcementLevel: "mandatory" },
      "cast-anonymous-recaptcha": { enforcementLevel: "disabled" },
      "cast-valid-until-past": { exemptResources: ["kiosk"] },
      "cast-anonymous-expiry": { maxValidDays: 30 },
    });
    expect((await driver.analyze(cast({ limitIps: false }))).map((d) => [d.policy, d.level])).toEqual([
      ["cast-anonymous-ip-limit", "mandatory"],
      ["cast-anonymous-expiry", "advisory"],
    ]);
  });

  it("stack rules see the whole stack", async () => {
    await driver.configure({ "staging-license-capacity": { license: "community" } });
    const diagnostics = await driver.analyzeStack([cast(), staging({ allowWsUploads: true, numSessions: 6 })]);
    expect(diagnostics.map((d) => [d.policy, d.level, d.urn.split("::").pop()])).toEqual([
      ["anonymous-data-transfer", "advisory", "staged"],
      ["staging-license-capacity", "advisory", "staged"],
    ]);
  });

  it("a value not known during preview makes a rule that needs it say it cannot run, as advisory, whatever its level", async () => {
    await driver.configure({ "cast-anonymous-ip-limit": { enforcementLevel: "mandatory" } });
    // Only the IP rule needs allowAnonymous here: the others pass whatever it is (recaptcha is on, and so on).
    const diagnostics = await driver.analyze(cast({ allowAnonymous: UNKNOWN_BOOL, limitIps: false }));
    expect(diagnostics.map((d) => [d.policy, d.level, d.message])).toEqual([
      [
        "cast-anonymous-ip-limit",
        "advisory",
        "can't run policy 'cast-anonymous-ip-limit' from policy pack 'kasm-hardening@v0.1.0' during preview: could not decide for CastConfig 'kiosk': allowAnonymous or limitIps is not known yet",
      ],
    ]);
  });

  it("conflicting declarations stop the preview (mandatory), linked through property dependencies on the wire", async () => {
    await driver.configure({});
    const alice: FixtureResource = { kind: "User", name: "alice", props: { username: "alice", userId: UNKNOWN } };
    const diagnostics = await driver.analyzeStack([
      alice,
      { kind: "UserGroups", name: "alice-groups", props: { userId: UNKNOWN, groupIds: [IDS.devs] }, from: { userId: ["alice"] } },
      { kind: "GroupMembership", name: "alice-ops", props: { userId: UNKNOWN, groupId: IDS.ops }, from: { userId: ["alice"] } },
    ]);
    expect(diagnostics.map((d) => [d.policy, d.level, d.urn.split("::").pop()])).toEqual([["conflicting-declarations", "mandatory", "alice-ops"]]);
    // @pulumi/policy puts the policy's description first, then the violation.
    expect(diagnostics[0].message.split("\n")[1]).toMatch(/^UserGroups 'alice-groups' and GroupMembership 'alice-ops' both manage the groups of the same user/);
  });

  it("names both resources of a conflict and reports it on the same one whatever order the resources register in", async () => {
    await driver.configure({});
    const alice: FixtureResource = { kind: "User", name: "alice", props: { username: "alice", userId: UNKNOWN } };
    const resources: FixtureResource[] = [
      alice,
      { kind: "UserAttributes", name: "tips-on", props: { userId: IDS.plain1, showTips: true } },
      { kind: "UserAttributes", name: "tips-off", props: { userId: IDS.plain1.toUpperCase(), showTips: false } },
      { kind: "UserGroups", name: "alice-groups", props: { userId: UNKNOWN, groupIds: [IDS.devs] }, from: { userId: ["alice"] } },
      { kind: "GroupMembership", name: "alice-ops", props: { userId: UNKNOWN, groupId: IDS.ops }, from: { userId: ["alice"] } },
    ];
    const seen = new Set<string>();
    // Every order of registration, as the CLI's parallel registration may produce any of them.
    for (const order of permutations(resources)) {
      const diagnostics = await driver.analyzeStack(order);
      seen.add(JSON.stringify(diagnostics.map((d) => [d.level, d.urn.split("::").pop(), d.message.split("\n")[1]]).sort()));
    }
    expect(seen.size).toBe(1);
    const [verdicts] = [...seen].map((v) => JSON.parse(v) as [string, string, string][]);
    expect(verdicts.map(([level, urn]) => [level, urn])).toEqual([
      ["mandatory", "alice-ops"],
      ["mandatory", "tips-on"],
    ]);
    expect(verdicts[1][2]).toMatch(/^UserAttributes 'tips-off' and UserAttributes 'tips-on' both manage the attributes of the same user/);
  });

  it("a pair it cannot compare during preview is an advisory 'can't run', not a mandatory violation", async () => {
    await driver.configure({});
    const diagnostics = await driver.analyzeStack([
      { kind: "UserAttributes", name: "a1", props: { userId: UNKNOWN, showTips: true } },
      { kind: "UserAttributes", name: "a2", props: { userId: IDS.plain1, showTips: false } },
    ]);
    expect(diagnostics.map((d) => [d.policy, d.level])).toEqual([["conflicting-declarations", "advisory"]]);
    expect(diagnostics[0].message).toMatch(
      /^can't run policy 'conflicting-declarations' from policy pack 'kasm-hardening@v0\.1\.0' during preview: could not decide whether UserAttributes 'a1' and UserAttributes 'a2'/,
    );
  });
});

describe("native resources (kasm:index:<Kind>), judged as the dynamic ones", () => {
  const native = (r: FixtureResource, provider?: FixtureProvider): FixtureResource => ({ ...r, form: "native", ...(provider ? { provider } : {}) });
  const said = (d: Diagnostic) => [d.policy, d.level, d.urn.split("::").pop(), d.message];
  const production: FixtureProvider = {
    name: "production",
    props: { baseUrl: "https://kasm.example.com", apiKey: "prod-key", apiKeySecret: "provider-api-key-secret-0f9e8d7c" },
  };
  const attrs = (name: string, provider?: FixtureProvider) => native({ kind: "UserAttributes", name, props: { userId: IDS.plain1, showTips: true } }, provider);

  it("a resource rule gives a native resource the same diagnostics as the dynamic one", async () => {
    await driver.configure({});
    const dynamic = await driver.analyze(open);
    expect((await driver.analyze(native(open))).map(said)).toEqual(dynamic.map(said));
    expect((await driver.analyze(native(open, production))).map(said)).toEqual(dynamic.map(said));
    expect(dynamic.map((d) => d.policy)).toContain("cast-valid-until-past");
  });

  it("conflicting-declarations compares native resources within one provider: two providers are two installations", async () => {
    await driver.configure({});
    const conflict = await driver.analyzeStack([attrs("a1"), attrs("a2")]);
    expect(conflict.map((d) => [d.policy, d.level, d.urn])).toEqual([
      ["conflicting-declarations", "mandatory", "urn:pulumi:ci::kasm-app::kasm:index:UserAttributes::a2"],
    ]);
    expect(conflict[0].message).toContain("UserAttributes 'a1' and UserAttributes 'a2' both manage");
    expect((await driver.analyzeStack([attrs("a1", production), attrs("a2", production)])).map((d) => d.policy)).toEqual(["conflicting-declarations"]);
    expect(await driver.analyzeStack([attrs("a1"), attrs("a2", production)])).toEqual([]);
  });

  it("staging-license-capacity counts a native provider's staging configs against connections.<provider name>'s license", async () => {
    await driver.configure({
      "staging-license-capacity": { license: "community", connections: { production: { license: "per-concurrent-session", concurrentSessions: 4 } } },
    });
    // Three sessions on the default installation (of 5), five on production (of 4).
    const diagnostics = await driver.analyzeStack([native(staging({ numSessions: 3 }, "here")), native(staging({ numSessions: 5 }, "there"), production)]);
    expect(diagnostics.map((d) => [d.policy, d.urn.split("::").pop()])).toEqual([["staging-license-capacity", "there"]]);
    expect(diagnostics[0].message).toContain(
      "the stack's staging configs of connection 'production' keep 5 sessions staged, more than the license's 4 concurrent sessions",
    );
    for (const d of diagnostics) expect(d.message).not.toContain("provider-api-key-secret");
  });
});

everyPolicyThroughTheAnalyzer(() => driver, REGISTRY, {
  "cast-anonymous-ip-limit": { resources: [cast({ limitIps: false })] },
  "cast-anonymous-expiry": { resources: [cast({ validUntil: null })] },
  "cast-anonymous-referrers": { resources: [cast({ allowedReferrers: [] })] },
  "cast-anonymous-recaptcha": { resources: [cast({ requireRecaptcha: false })] },
  "cast-anonymous-sharing": { resources: [cast({ enableSharing: true })] },
  "cast-anonymous-dynamic-args": { resources: [cast({ dynamicWsUrl: true })] },
  "anonymous-data-transfer": { resources: [cast({ allowWsUploads: true })] },
  "cast-valid-until-past": { resources: [cast({ validUntil: "2001-01-01 00:00:00" })] },
  "conflicting-declarations": {
    resources: [
      { kind: "UserAttributes", name: "a1", props: { userId: IDS.plain1, showTips: true } },
      { kind: "UserAttributes", name: "a2", props: { userId: IDS.plain1, showTips: false } },
    ],
  },
  "egress-credential-connection-limit": { resources: [credential({ limitActiveConnections: false })] },
  "staging-license-capacity": { config: { "staging-license-capacity": { license: "community" } }, resources: [staging({ numSessions: 6 })] },
  "user-password-length": { resources: [user({ password: "short" })] },
  "server-import-shared-credentials": {
    resources: [{ kind: "ServerImport", name: "lab", props: { servers: [{ name: "ws-1", ipHostname: "10.0.0.1", port: 22, connectionType: "SSH" }] } }],
  },
  "user-set-administrators": {
    resources: [{ kind: "UserSet", name: "staff", props: { users: [{ username: "ada", forcePasswordReset: true, groups: ["Administrators"] }] } }],
  },
  "user-set-password-reset": { resources: [{ kind: "UserSet", name: "staff", props: { users: [{ username: "bob" }] } }] },
  "workspace-host-access": {
    resources: [
      {
        kind: "Workspace",
        name: "dind",
        props: {
          name: "kasmweb/desktop:1.16.0",
          friendlyName: "Desktop",
          volumeMappings: { "/var/run/docker.sock": { bind: "/var/run/docker.sock", mode: "rw" } },
        },
      },
    ],
  },
  "workspace-config-credentials": {
    resources: [
      {
        kind: "Workspace",
        name: "app",
        props: { name: "kasmweb/app:1.16.0", friendlyName: "App", runConfig: { environment: { DB_PASSWORD: "hunter2-hunter2" } } },
      },
    ],
  },
});

/** Every order of `items`. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}
