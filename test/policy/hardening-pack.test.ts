/**
 * The hardening pack's policies, called directly: each from a compliant fixture, with one field
 * changed per case; values not known during preview give "could not decide", never a crash.
 */
import { describe, expect, it } from "vitest";
import { policies } from "../../policy/hardening/policies";
import { anonymousDataTransfer } from "../../policy/hardening/anonymous-data-transfer";
import { castAnonymousDynamicArgs } from "../../policy/hardening/cast-anonymous-dynamic-args";
import { castAnonymousExpiry } from "../../policy/hardening/cast-anonymous-expiry";
import { castAnonymousIpLimit } from "../../policy/hardening/cast-anonymous-ip-limit";
import { castAnonymousRecaptcha } from "../../policy/hardening/cast-anonymous-recaptcha";
import { castAnonymousSharing } from "../../policy/hardening/cast-anonymous-sharing";
import { castValidUntilPast } from "../../policy/hardening/cast-valid-until-past";
import { conflictingDeclarations } from "../../policy/hardening/conflicting-declarations";
import { egressCredentialConnectionLimit } from "../../policy/hardening/egress-credential-connection-limit";
import { serverImportSharedCredentials } from "../../policy/hardening/server-import-shared-credentials";
import { stagingLicenseCapacity } from "../../policy/hardening/staging-license-capacity";
import { userPasswordLength } from "../../policy/hardening/user-password-length";
import { userSetAdministrators } from "../../policy/hardening/user-set-administrators";
import { userSetPasswordReset } from "../../policy/hardening/user-set-password-reset";
import { workspaceConfigCredentials } from "../../policy/hardening/workspace-config-credentials";
import { workspaceHostAccess } from "../../policy/hardening/workspace-host-access";
import { castAnonymousReferrers, withinDomains } from "../../policy/hardening/cast-anonymous-referrers";
import { IDS, runResourcePolicy, runStackPolicy, UNKNOWN, UNKNOWN_ARRAY, UNKNOWN_BOOL, type FixtureResource } from "./helpers";
import { CAST_KEY, cast, credential, staging, user } from "./fixtures";
import { hyphenatedUpperCase } from "../helpers/emulator";

const messages = (outcome: { violations: { message: string }[] }) => outcome.violations.map((v) => v.message);

/** A compliant UserSet: local users who reset their password, an LDAP user, ordinary groups. */
const userSet = (users: Record<string, unknown>[] | string = [{}, {}, {}], name = "staff"): FixtureResource => {
  const base = [
    { username: "ada", forcePasswordReset: true, groups: ["devs"] },
    { username: "grace", realm: "ldap", groups: ["All Users", "ops"] },
    { username: "linus", realm: "Local", forcePasswordReset: true },
  ];
  if (typeof users === "string") return { kind: "UserSet", name, props: { csv: users } };
  return { kind: "UserSet", name, props: { users: users.map((change, i) => ({ ...base[i % base.length], ...change })) } };
};

/** A compliant ServerImport: an SSH server with per-user keys, an RDP server, an SSO SSH server. */
const serverImport = (servers: Record<string, unknown>[] | string = [{}, {}, {}], name = "lab"): FixtureResource => {
  const base = [
    { name: "ws-1", ipHostname: "10.0.0.1", port: 22, connectionType: "SSH", connectionCredentialType: "STATIC", useUserPrivateKey: true },
    { name: "ws-2", ipHostname: "10.0.0.2", port: 3389, connectionType: "RDP" },
    { name: "ws-3", ipHostname: "10.0.0.3", port: 22, connectionType: "ssh", connectionCredentialType: "SSO" },
  ];
  if (typeof servers === "string") return { kind: "ServerImport", name, props: { csv: servers } };
  return { kind: "ServerImport", name, props: { servers: servers.map((change, i) => ({ ...base[i % base.length], ...change })) } };
};

describe("the pack", () => {
  it("every policy but cast-valid-until-past and conflicting-declarations is advisory by default, each takes exemptResources", () => {
    expect(policies.map((p) => [p.name, p.enforcementLevel])).toEqual([
      ["cast-anonymous-ip-limit", "advisory"],
      ["cast-anonymous-expiry", "advisory"],
      ["cast-anonymous-referrers", "advisory"],
      ["cast-anonymous-recaptcha", "advisory"],
      ["cast-anonymous-sharing", "advisory"],
      ["cast-anonymous-dynamic-args", "advisory"],
      ["anonymous-data-transfer", "advisory"],
      ["cast-valid-until-past", "mandatory"],
      ["conflicting-declarations", "mandatory"],
      ["egress-credential-connection-limit", "advisory"],
      ["staging-license-capacity", "advisory"],
      ["user-password-length", "advisory"],
      ["server-import-shared-credentials", "advisory"],
      ["user-set-administrators", "advisory"],
      ["user-set-password-reset", "advisory"],
      ["workspace-host-access", "advisory"],
      ["workspace-config-credentials", "advisory"],
    ]);
    for (const p of policies) expect(Object.keys(p.configSchema!.properties)).toContain("exemptResources");
  });

  it("the compliant fixtures pass every resource policy and never show secrets", async () => {
    for (const p of policies) {
      if (!("validateResource" in p)) continue;
      for (const r of [cast(), staging(), credential(), user(), serverImport(), userSet()])
        expect(await runResourcePolicy(p, r, {}), `${p.name} on ${r.name}`).toEqual({ violations: [] });
    }
    const loud = [cast({ limitIps: false, key: CAST_KEY }), user({ password: "short" })];
    for (const p of policies)
      if ("validateResource" in p)
        for (const r of loud) for (const m of messages(await runResourcePolicy(p, r, {}))) expect(m).not.toMatch(/kiosk-secret-key|short"/);
  });
});

describe("cast-anonymous-ip-limit", () => {
  it("flags anonymous casting without limitIps", async () => {
    expect(messages(await runResourcePolicy(castAnonymousIpLimit, cast({ limitIps: false })))).toEqual([
      "CastConfig 'kiosk': allowAnonymous is true but limitIps is not: one client can start anonymous sessions without limit. Set limitIps with ipRequestLimit and ipRequestSeconds.",
    ]);
  });
  it("passes casting that is not anonymous", async () => {
    expect(messages(await runResourcePolicy(castAnonymousIpLimit, cast({ allowAnonymous: false, limitIps: false })))).toEqual([]);
  });
  it("flags a limit looser than maxRequestsPerHour", async () => {
    expect(messages(await runResourcePolicy(castAnonymousIpLimit, cast({ ipRequestLimit: 10, ipRequestSeconds: 60 }), { maxRequestsPerHour: 100 }))).toEqual([
      "CastConfig 'kiosk': the per-IP limit allows 600 anonymous sessions per hour, more than maxRequestsPerHour (100).",
    ]);
    expect(messages(await runResourcePolicy(castAnonymousIpLimit, cast(), { maxRequestsPerHour: 100 }))).toEqual([]);
  });
  it("could not decide while allowAnonymous is not known, and can when it does not matter", async () => {
    expect((await runResourcePolicy(castAnonymousIpLimit, cast({ allowAnonymous: UNKNOWN_BOOL, limitIps: false }))).undecided).toBe(
      "could not decide for CastConfig 'kiosk': allowAnonymous or limitIps is not known yet",
    );
    expect(await runResourcePolicy(castAnonymousIpLimit, cast({ allowAnonymous: UNKNOWN_BOOL }))).toEqual({ violations: [] });
  });
  it("respects exemptResources", async () => {
    expect(await runResourcePolicy(castAnonymousIpLimit, cast({ limitIps: false }), { exemptResources: ["kiosk"] })).toEqual({ violations: [] });
  });
});

describe("cast-anonymous-expiry", () => {
  it("flags anonymous casting without validUntil", async () => {
    expect(messages(await runResourcePolicy(castAnonymousExpiry, cast({ validUntil: undefined })))).toEqual([
      "CastConfig 'kiosk': allowAnonymous is true but validUntil is not set: the anonymous link never expires. Set validUntil.",
    ]);
  });
  it("passes a link with an end, and flags one too far ahead with maxValidDays", async () => {
    expect(messages(await runResourcePolicy(castAnonymousExpiry, cast()))).toEqual([]);
    expect(messages(await runResourcePolicy(castAnonymousExpiry, cast(), { maxValidDays: 30 }))).toEqual([
      "CastConfig 'kiosk': validUntil is more than maxValidDays (30) days ahead.",
    ]);
  });
});

describe("cast-anonymous-referrers", () => {
  it("flags anonymous casting without allowedReferrers", async () => {
    expect(messages(await runResourcePolicy(castAnonymousReferrers, cast({ allowedReferrers: [] })))).toHaveLength(1);
  });
  it("passes listed referrers, and checks them against trustedDomains", async () => {
    expect(messages(await runResourcePolicy(castAnonymousReferrers, cast(), { trustedDomains: ["example.com"] }))).toEqual([]);
    expect(
      messages(
        await runResourcePolicy(castAnonymousReferrers, cast({ allowedReferrers: ["app.example.com", "evil.test"] }), { trustedDomains: ["example.com"] }),
      ),
    ).toEqual(["CastConfig 'kiosk': 1 allowed referrer(s) lie outside trustedDomains."]);
    expect(withinDomains("*.example.com:8443", ["example.com"])).toBe(true);
    expect(withinDomains("notexample.com", ["example.com"])).toBe(false);
  });
  it("could not decide while the list is not known", async () => {
    expect((await runResourcePolicy(castAnonymousReferrers, cast({ allowedReferrers: UNKNOWN_ARRAY }))).undecided).toContain(
      "allowedReferrers is not known yet",
    );
  });
});

describe("cast-anonymous-recaptcha", () => {
  it("flags anonymous casting without requireRecaptcha, passes with it", async () => {
    expect(messages(await runResourcePolicy(castAnonymousRecaptcha, cast({ requireRecaptcha: false })))).toHaveLength(1);
    expect(messages(await runResourcePolicy(castAnonymousRecaptcha, cast()))).toEqual([]);
  });
});

describe("cast-anonymous-sharing", () => {
  it("flags enableSharing, and allowWsSharing under enforceClientSettings, with anonymous access", async () => {
    expect(messages(await runResourcePolicy(castAnonymousSharing, cast({ enableSharing: true })))).toHaveLength(1);
    expect(messages(await runResourcePolicy(castAnonymousSharing, cast({ allowWsSharing: true })))).toHaveLength(1);
    expect(messages(await runResourcePolicy(castAnonymousSharing, cast({ allowWsSharing: true, enforceClientSettings: false })))).toEqual([]);
    expect(messages(await runResourcePolicy(castAnonymousSharing, cast()))).toEqual([]);
  });
});

describe("cast-anonymous-dynamic-args", () => {
  it("flags dynamicWsUrl or dynamicCtrNetwork with anonymous access, unless allowed by config", async () => {
    expect(messages(await runResourcePolicy(castAnonymousDynamicArgs, cast({ dynamicCtrNetwork: true })))).toEqual([
      "CastConfig 'kiosk': allowAnonymous is true and dynamicCtrNetwork lets the caller set the session's container network from the URL. Turn it off.",
    ]);
    expect(messages(await runResourcePolicy(castAnonymousDynamicArgs, cast({ dynamicCtrNetwork: true }), { allowedArguments: ["dynamicCtrNetwork"] }))).toEqual(
      [],
    );
    expect(messages(await runResourcePolicy(castAnonymousDynamicArgs, cast()))).toEqual([]);
  });
});

describe("anonymous-data-transfer", () => {
  it("passes the compliant casting and staging configs", async () => {
    expect(await runStackPolicy(anonymousDataTransfer, [cast(), staging()])).toEqual({ violations: [] });
  });
  it("flags clipboard-up or uploads on an anonymous casting config", async () => {
    const { violations } = await runStackPolicy(anonymousDataTransfer, [cast({ allowWsUploads: true }), staging()]);
    expect(violations.map((v) => v.message)).toEqual([
      "CastConfig 'kiosk': allowAnonymous is true and allowWsUploads lets anonymous users move data into the session. Turn it off.",
    ]);
  });
  it("flags a staging config of the image an anonymous casting config uses, not of another image", async () => {
    const flagged = await runStackPolicy(anonymousDataTransfer, [cast(), staging({ allowWsClipboardUp: true })]);
    expect(flagged.violations.map((v) => v.message)).toEqual([
      "StagingConfig 'staged': allowWsClipboardUp reaches anonymous users, because its staged sessions back the anonymous casting config(s) 'kiosk' of the same image. Turn it off.",
    ]);
    expect(flagged.violations[0].urn).toContain("StagingConfig::staged");
    expect(await runStackPolicy(anonymousDataTransfer, [cast(), staging({ allowWsClipboardUp: true, imageId: IDS.image2 })])).toEqual({ violations: [] });
    expect(await runStackPolicy(anonymousDataTransfer, [cast({ allowAnonymous: false }), staging({ allowWsClipboardUp: true })])).toEqual({ violations: [] });
  });
  it("matches images not known yet through the resource they come from, and otherwise could not decide", async () => {
    const image: FixtureResource = { kind: "Other", name: "image", props: {} };
    const linked = [
      image,
      { ...cast({ imageId: UNKNOWN }), from: { imageId: ["image"] } },
      { ...staging({ imageId: UNKNOWN, allowWsUploads: true }), from: { imageId: ["image"] } },
    ];
    expect((await runStackPolicy(anonymousDataTransfer, linked)).violations).toHaveLength(1);
    const unlinked = await runStackPolicy(anonymousDataTransfer, [cast(), staging({ imageId: UNKNOWN, allowWsUploads: true })]);
    expect(unlinked.undecided).toContain(
      "StagingConfig 'staged': its flags, its image, or whether an anonymous casting config uses that image is not known yet",
    );
  });
  it("takes the flags to check from config", async () => {
    expect((await runStackPolicy(anonymousDataTransfer, [cast({ allowWsDownloads: true })], { flags: ["allowWsDownloads"] })).violations).toHaveLength(1);
    expect((await runStackPolicy(anonymousDataTransfer, [cast({ allowWsUploads: true })], { flags: ["allowWsDownloads"] })).violations).toHaveLength(0);
  });
});

describe("cast-valid-until-past", () => {
  it("flags a validUntil already past, passes a future one and none", async () => {
    expect(messages(await runResourcePolicy(castValidUntilPast, cast({ validUntil: "2001-02-03 04:05:06" })))).toEqual([
      "CastConfig 'kiosk': validUntil is already past: the casting link would only answer with an error. Set a future UTC time.",
    ]);
    expect(messages(await runResourcePolicy(castValidUntilPast, cast()))).toEqual([]);
    expect(messages(await runResourcePolicy(castValidUntilPast, cast({ validUntil: undefined })))).toEqual([]);
  });
  it("flags one ending sooner than minRemainingHours", async () => {
    const soon = new Date(Date.now() + 3_600_000).toISOString().replace("T", " ").slice(0, 19);
    expect(messages(await runResourcePolicy(castValidUntilPast, cast({ validUntil: soon }), { minRemainingHours: 24 }))).toEqual([
      "CastConfig 'kiosk': validUntil is less than minRemainingHours (24) hours ahead.",
    ]);
  });
  it("could not decide while validUntil is not known", async () => {
    expect((await runResourcePolicy(castValidUntilPast, cast({ validUntil: UNKNOWN }))).undecided).toBe(
      "could not decide for CastConfig 'kiosk': validUntil is not known yet",
    );
  });
});

describe("egress-credential-connection-limit", () => {
  it("flags a credential without limitActiveConnections, passes one with it", async () => {
    expect(messages(await runResourcePolicy(egressCredentialConnectionLimit, credential({ limitActiveConnections: undefined })))).toEqual([
      "EgressCredential 'cred': limitActiveConnections is not set: the credential allows any number of connections. Set limitActiveConnections and activeConnectionLimit.",
    ]);
    expect(messages(await runResourcePolicy(egressCredentialConnectionLimit, credential()))).toEqual([]);
  });
  it("flags a limit above maxActiveConnectionLimit", async () => {
    expect(
      messages(await runResourcePolicy(egressCredentialConnectionLimit, credential({ activeConnectionLimit: 50 }), { maxActiveConnectionLimit: 10 })),
    ).toHaveLength(1);
  });
});

describe("staging-license-capacity", () => {
  it("flags staging beyond the Community Edition's 5 concurrent sessions, across the stack", async () => {
    const { violations } = await runStackPolicy(
      stagingLicenseCapacity,
      [staging({ numSessions: 4 }), staging({ numSessions: 2, imageId: IDS.image2 }, "staged-2")],
      { license: "community" },
    );
    expect(violations.map((v) => v.message)).toEqual([
      "StagingConfig 'staged': the stack's staging configs keep 6 sessions staged, more than the Community Edition's 5 concurrent sessions; staged sessions count as running sessions.",
      "StagingConfig 'staged-2': the stack's staging configs keep 6 sessions staged, more than the Community Edition's 5 concurrent sessions; staged sessions count as running sessions.",
    ]);
  });
  it("passes within capacity, and does not apply without a license that limits sessions", async () => {
    expect(await runStackPolicy(stagingLicenseCapacity, [staging({ numSessions: 5 })], { license: "community" })).toEqual({ violations: [] });
    expect((await runStackPolicy(stagingLicenseCapacity, [staging({ numSessions: 9 })], {})).notApplicable).toBeDefined();
    expect(
      (await runStackPolicy(stagingLicenseCapacity, [staging({ numSessions: 9 })], { license: "per-concurrent-session", concurrentSessions: 8 })).violations,
    ).toHaveLength(1);
  });
  it("could not decide while a count is not known, unless the known ones exceed already", async () => {
    expect((await runStackPolicy(stagingLicenseCapacity, [staging({ numSessions: UNKNOWN })], { license: "community" })).undecided).toContain(
      "numSessions of StagingConfig 'staged'",
    );
    expect(
      (await runStackPolicy(stagingLicenseCapacity, [staging({ numSessions: 6 }), staging({ numSessions: UNKNOWN }, "other")], { license: "community" }))
        .violations,
    ).toHaveLength(1);
  });
});

describe("user-password-length", () => {
  it("flags a short password without printing it, passes a long one and none", async () => {
    expect(messages(await runResourcePolicy(userPasswordLength, user({ password: "hunter2" })))).toEqual([
      "User 'bob': password is shorter than minLength (12) characters. Use a longer, generated password.",
    ]);
    expect(messages(await runResourcePolicy(userPasswordLength, user()))).toEqual([]);
    expect(messages(await runResourcePolicy(userPasswordLength, user({ password: undefined })))).toEqual([]);
    expect(messages(await runResourcePolicy(userPasswordLength, user(), { minLength: 40 }))).toHaveLength(1);
  });
});

describe("conflicting-declarations", () => {
  const attrs = (name: string, userId: unknown, from?: string[]): FixtureResource => ({
    kind: "UserAttributes",
    name,
    props: { userId, showTips: false },
    ...(from ? { from: { userId: from } } : {}),
  });
  const membership = (name: string, userId: unknown, groupId: unknown, from?: string[]): FixtureResource => ({
    kind: "GroupMembership",
    name,
    props: { userId, groupId },
    ...(from ? { from: { userId: from } } : {}),
  });
  const userGroups = (name: string, userId: unknown, groupIds: unknown[] = [IDS.devs]): FixtureResource => ({
    kind: "UserGroups",
    name,
    props: { userId, groupIds },
  });
  const drain = (name: string, serverId: unknown): FixtureResource => ({ kind: "ServerDrain", name, props: { serverId, draining: true } });
  const link = (kind: FixtureResource["kind"], name: string, props: Record<string, unknown>): FixtureResource => ({ kind, name, props });
  const mapping = (name: string, target: Record<string, unknown>, egressProviderId: string = IDS.plain1): FixtureResource => ({
    kind: "EgressProviderMapping",
    name,
    props: { egressProviderId, ...target },
  });
  const newUser = (name: string, props: Record<string, unknown> = {}): FixtureResource => ({
    kind: "User",
    name,
    props: { username: name, userId: UNKNOWN, ...props },
  });

  it("passes resources that each manage their own object", async () => {
    const resources = [
      attrs("a1", IDS.plain1),
      attrs("a2", IDS.plain2),
      userGroups("g1", IDS.plain1),
      membership("m1", IDS.plain2, IDS.devs),
      membership("m2", IDS.plain2, IDS.ops),
      drain("d1", IDS.server1),
      drain("d2", IDS.server2),
      staging(),
      staging({ imageId: IDS.image2 }, "staged-2"),
    ];
    expect(await runStackPolicy(conflictingDeclarations, resources)).toEqual({ violations: [] });
  });

  it("names both resources of two UserAttributes of one user, whatever the spelling of its id, on the later one", async () => {
    const { violations } = await runStackPolicy(conflictingDeclarations, [
      attrs("alice-attrs", IDS.plain1),
      attrs("alice-more", hyphenatedUpperCase(IDS.plain1)),
    ]);
    expect(violations).toEqual([
      {
        message:
          "UserAttributes 'alice-attrs' and UserAttributes 'alice-more' both manage the attributes of the same user (userId): each update overwrites the other's values. Declare one UserAttributes per user.",
        urn: "urn:pulumi:ci::kasm-app::pulumi-nodejs:dynamic/kasm:UserAttributes::alice-more",
      },
    ]);
  });

  it("flags a GroupMembership beside a UserGroups of the same user, in either order", async () => {
    for (const resources of [
      [userGroups("alice-groups", IDS.plain1), membership("alice-ops", IDS.plain1, IDS.ops)],
      [membership("alice-ops", IDS.plain1, IDS.ops), userGroups("alice-groups", IDS.plain1)],
    ]) {
      expect(messages(await runStackPolicy(conflictingDeclarations, resources))).toEqual([
        "UserGroups 'alice-groups' and GroupMembership 'alice-ops' both manage the groups of the same user (userId): UserGroups sets the user's groups exactly and removes " +
          "the membership the GroupMembership adds, which adds it back: each undoes the other. Put the group in the UserGroups' groupIds and remove the GroupMembership, " +
          "or manage this user with GroupMemberships only.",
      ]);
    }
    expect(await runStackPolicy(conflictingDeclarations, [userGroups("alice-groups", IDS.plain1), membership("bob-ops", IDS.plain2, IDS.ops)])).toEqual({
      violations: [],
    });
  });

  it("flags two UserGroups of one user, two ServerDrain of one server, two StagingConfig of one zone and image, two GroupMembership of one user and group", async () => {
    const cases: [FixtureResource[], string][] = [
      [
        [userGroups("g1", IDS.plain1), userGroups("g2", IDS.plain1.toUpperCase(), [IDS.ops])],
        "UserGroups 'g1' and UserGroups 'g2' both manage the groups of the same user (userId)",
      ],
      [
        [drain("d1", IDS.server1), drain("d2", hyphenatedUpperCase(IDS.server1))],
        "ServerDrain 'd1' and ServerDrain 'd2' both manage the draining of the same server (serverId)",
      ],
      [
        [staging(), staging({ numSessions: 1, imageId: hyphenatedUpperCase(IDS.image1) }, "staged-again")],
        "StagingConfig 'staged' and StagingConfig 'staged-again' both manage the staging config of the same zone and image (zoneId and imageId)",
      ],
      [
        [membership("m1", IDS.plain1, IDS.devs), membership("m2", IDS.plain1, hyphenatedUpperCase(IDS.devs))],
        "GroupMembership 'm1' and GroupMembership 'm2' both manage the same membership (the same user in the same group) (userId and groupId)",
      ],
    ];
    for (const [resources, start] of cases) {
      const found = messages(await runStackPolicy(conflictingDeclarations, resources));
      expect(found, start).toHaveLength(1);
      expect(found[0]).toMatch(new RegExp(`^${start.replace(/[()]/g, "\\$&")}: `));
    }
    // One key part differs: another object.
    expect(await runStackPolicy(conflictingDeclarations, [staging(), staging({ zoneId: IDS.image2 }, "other-zone")])).toEqual({ violations: [] });
    expect(
      await runStackPolicy(conflictingDeclarations, [
        link("UserServerAssignment", "a1", { userId: IDS.plain1, serverId: IDS.server1 }),
        link("UserServerAssignment", "a2", { userId: IDS.plain1, serverId: IDS.server2 }),
      ]),
    ).toEqual({ violations: [] });
    expect(await runStackPolicy(conflictingDeclarations, [membership("m1", IDS.plain1, IDS.devs), membership("m2", IDS.plain2, IDS.devs)])).toEqual({
      violations: [],
    });
  });

  it("flags two declarations of one link: an assignment, a group's workspace, an egress provider mapping (the create of the second takes the first's link without an error)", async () => {
    const cases: [FixtureResource[], string][] = [
      [
        [
          link("UserServerAssignment", "a1", { userId: IDS.plain1, serverId: IDS.server1 }),
          link("UserServerAssignment", "a2", { userId: hyphenatedUpperCase(IDS.plain1), serverId: IDS.server1 }),
        ],
        "UserServerAssignment 'a1' and UserServerAssignment 'a2' both manage the same assignment (the same user and server) (userId and serverId)",
      ],
      [
        [
          link("GroupWorkspace", "w1", { groupId: IDS.devs, imageId: IDS.image1 }),
          link("GroupWorkspace", "w2", { groupId: IDS.devs, imageId: hyphenatedUpperCase(IDS.image1), adopt: true }),
        ],
        "GroupWorkspace 'w1' and GroupWorkspace 'w2' both manage the same authorization (the same group and workspace) (groupId and imageId)",
      ],
      [
        [
          mapping("p1", { groupId: IDS.devs, allowAllGateways: true }),
          mapping("p2", { groupId: hyphenatedUpperCase(IDS.devs), selectedGateways: [IDS.server1] }),
        ],
        "EgressProviderMapping 'p1' and EgressProviderMapping 'p2' both manage the same egress provider mapping (the same provider and target) (egressProviderId and userId and groupId and imageId)",
      ],
    ];
    for (const [resources, start] of cases) {
      const found = messages(await runStackPolicy(conflictingDeclarations, resources));
      expect(found, start).toHaveLength(1);
      expect(found[0]).toMatch(new RegExp(`^${start.replace(/[()]/g, "\\$&")}: `));
    }
    // The mapping's target is one of three: another kind of target, or another target, is another mapping.
    expect(await runStackPolicy(conflictingDeclarations, [mapping("p1", { groupId: IDS.devs }), mapping("p2", { userId: IDS.devs })])).toEqual({
      violations: [],
    });
    expect(await runStackPolicy(conflictingDeclarations, [mapping("p1", { groupId: IDS.devs }), mapping("p2", { groupId: IDS.ops })])).toEqual({
      violations: [],
    });
    expect(await runStackPolicy(conflictingDeclarations, [mapping("p1", { groupId: IDS.devs }), mapping("p2", { groupId: IDS.devs }, IDS.plain2)])).toEqual({
      violations: [],
    });
    expect(
      await runStackPolicy(conflictingDeclarations, [
        link("GroupWorkspace", "w1", { groupId: IDS.devs, imageId: IDS.image1 }),
        link("GroupWorkspace", "w2", { groupId: IDS.ops, imageId: IDS.image1 }),
      ]),
    ).toEqual({ violations: [] });
  });

  it("during preview, follows a userId not known yet to the User of the stack it comes from", async () => {
    // Both take alice.userId: the same user, though its id is not known yet.
    const same = await runStackPolicy(conflictingDeclarations, [newUser("alice"), attrs("a1", UNKNOWN, ["alice"]), attrs("a2", UNKNOWN, ["alice"])]);
    expect(messages(same)).toEqual([expect.stringMatching(/^UserAttributes 'a1' and UserAttributes 'a2' both manage the attributes of the same user/)]);
    // Two Users of the stack are two users; a user the stack creates is none of the existing ones.
    const resources = [
      newUser("alice"),
      newUser("bob"),
      userGroups("alice-groups", UNKNOWN),
      membership("bob-devs", UNKNOWN, IDS.devs, ["bob"]),
      membership("plain-devs", IDS.plain1, IDS.devs),
    ];
    resources[2] = { ...resources[2], from: { userId: ["alice"] } };
    expect(await runStackPolicy(conflictingDeclarations, resources)).toEqual({ violations: [] });
  });

  it("once a User's id is known, a literal id of that user is the same user", async () => {
    const outcome = await runStackPolicy(conflictingDeclarations, [
      newUser("alice", { userId: IDS.plain1 }),
      attrs("a1", UNKNOWN, ["alice"]),
      attrs("a2", hyphenatedUpperCase(IDS.plain1)),
    ]);
    expect(outcome.violations).toHaveLength(1);
  });

  it("could not decide for an id not known that comes from no User, or from a User that may adopt, and still reports what it could decide", async () => {
    const outcome = await runStackPolicy(conflictingDeclarations, [
      newUser("alice", { adopt: true }),
      attrs("a1", UNKNOWN, ["alice"]),
      attrs("a2", IDS.plain1),
      drain("d1", IDS.server1),
      drain("d2", IDS.server1),
      membership("m1", IDS.plain2, UNKNOWN),
      membership("m2", IDS.plain2, IDS.devs),
    ]);
    expect(messages(outcome)).toEqual([expect.stringMatching(/^ServerDrain 'd1' and ServerDrain 'd2' both manage/)]);
    // In URN order (the kind's type, then the name), whatever order the resources registered in.
    expect(outcome.undecided).toBe(
      "could not decide whether GroupMembership 'm1' and GroupMembership 'm2' manage the same membership (the same user in the same group): their groupId cannot be compared yet " +
        "(a value not known during preview that is not the userId of one User of this stack, or a User that may adopt an existing user); " +
        "whether UserAttributes 'a1' and UserAttributes 'a2' manage the attributes of the same user: their userId cannot be compared yet " +
        "(a value not known during preview that is not the userId of one User of this stack, or a User that may adopt an existing user)",
    );
    // A value that differs where it is known needs nothing unknown: another object.
    expect(await runStackPolicy(conflictingDeclarations, [membership("m1", IDS.plain1, UNKNOWN), membership("m2", IDS.plain2, UNKNOWN)])).toEqual({
      violations: [],
    });
  });

  it("respects exemptResources, and does not apply to a stack with nothing to compare", async () => {
    expect(await runStackPolicy(conflictingDeclarations, [drain("d1", IDS.server1), drain("d2", IDS.server1)], { exemptResources: ["d2"] })).toEqual({
      violations: [],
      notApplicable: "the stack has fewer than two resources of the kinds this policy compares",
    });
    expect((await runStackPolicy(conflictingDeclarations, [cast(), user()])).notApplicable).toBeDefined();
  });
});

describe("server-import-shared-credentials", () => {
  it("flags SSH rows with STATIC credentials (named or Kasm's default) and no user key, naming them by position", async () => {
    expect(
      messages(
        await runResourcePolicy(serverImportSharedCredentials, serverImport([{}, {}, { connectionCredentialType: "static" }, { useUserPrivateKey: false }])),
      ),
    ).toEqual([
      "ServerImport 'lab': servers[2] and servers[3] are SSH servers with STATIC credentials (Kasm's default) and without useUserPrivateKey: every user connects as the same stored account. Set useUserPrivateKey: true, or connectionCredentialType: SSO.",
    ]);
    expect(
      messages(await runResourcePolicy(serverImportSharedCredentials, serverImport([{ connectionCredentialType: undefined, useUserPrivateKey: undefined }]))),
    ).toEqual([expect.stringMatching(/^ServerImport 'lab': servers\[0\] is an SSH server with STATIC credentials/)]);
    expect(await runResourcePolicy(serverImportSharedCredentials, serverImport())).toEqual({ violations: [] });
  });
  it("reads Kasm's CSV too, and never prints a row's values", async () => {
    const csv =
      "name,ip_hostname,port,connection_type,connection_credential_type,use_user_private_key\nsecret-host,10.0.0.9,22,SSH,,no\nws-2,10.0.0.2,22,SSH,STATIC,yes\n";
    const found = messages(await runResourcePolicy(serverImportSharedCredentials, serverImport(csv)));
    expect(found).toEqual([expect.stringMatching(/^ServerImport 'lab': csv row 1 \(line 2\) is an SSH server/)]);
    expect(found[0]).not.toMatch(/secret-host|10\.0\.0\.9/);
  });
  it("could not decide while the rows or their connection settings are not known, unless a known row is flagged already", async () => {
    expect((await runResourcePolicy(serverImportSharedCredentials, { kind: "ServerImport", name: "lab", props: { servers: UNKNOWN_ARRAY } })).undecided).toBe(
      "could not decide for ServerImport 'lab': its rows (csv or servers) are not known yet",
    );
    expect((await runResourcePolicy(serverImportSharedCredentials, serverImport([{ useUserPrivateKey: UNKNOWN_BOOL }, {}]))).undecided).toContain(
      "not known yet",
    );
    expect(
      messages(
        await runResourcePolicy(serverImportSharedCredentials, serverImport([{ useUserPrivateKey: UNKNOWN_BOOL }, {}, { connectionCredentialType: "STATIC" }])),
      ),
    ).toHaveLength(1);
  });
  it("respects exemptResources", async () => {
    expect(await runResourcePolicy(serverImportSharedCredentials, serverImport([{ useUserPrivateKey: false }]), { exemptResources: ["lab"] })).toEqual({
      violations: [],
    });
  });
});

describe("user-set-administrators", () => {
  it("flags rows that put users into Administrators, naming them by position only", async () => {
    const found = messages(
      await runResourcePolicy(userSetAdministrators, userSet([{}, { groups: ["ops", "Administrators"] }, {}, { groups: [" administrators "] }])),
    );
    expect(found).toEqual([
      "UserSet 'staff': users[1] and users[3] put their users into Administrators, which holds Global Admin over the whole deployment. Declare administrators one by one (a User with a GroupMembership).",
    ]);
    expect(found[0]).not.toMatch(/grace|ada/);
    expect(await runResourcePolicy(userSetAdministrators, userSet())).toEqual({ violations: [] });
  });
  it("reads Kasm's CSV group columns", async () => {
    const csv = "username,group_1,group_2\nada,devs,\nroot,ops,Administrators\n";
    expect(messages(await runResourcePolicy(userSetAdministrators, userSet(csv)))).toEqual([
      expect.stringMatching(/^UserSet 'staff': csv row 2 \(line 3\) puts its user into Administrators/),
    ]);
  });
  it("could not decide while groups are not known, and respects exemptResources", async () => {
    expect((await runResourcePolicy(userSetAdministrators, userSet([{ groups: UNKNOWN_ARRAY }]))).undecided).toBe(
      "could not decide for UserSet 'staff': the groups of some rows are not known yet",
    );
    expect((await runResourcePolicy(userSetAdministrators, userSet([{ groups: ["devs", UNKNOWN] }]))).undecided).toBeDefined();
    expect((await runResourcePolicy(userSetAdministrators, { kind: "UserSet", name: "staff", props: { csv: UNKNOWN } })).undecided).toContain("its rows");
    expect(await runResourcePolicy(userSetAdministrators, userSet([{ groups: ["Administrators"] }]), { exemptResources: ["staff"] })).toEqual({
      violations: [],
    });
  });
});

describe("user-set-password-reset", () => {
  it("flags local users (the default realm) without forcePasswordReset, not users of a directory", async () => {
    expect(
      messages(
        await runResourcePolicy(
          userSetPasswordReset,
          userSet([{ forcePasswordReset: false }, {}, { forcePasswordReset: undefined }, { realm: "saml", forcePasswordReset: false }]),
        ),
      ),
    ).toEqual([
      "UserSet 'staff': users[0] and users[2] are local users without forcePasswordReset: they keep the password they were given until they change it. Set forcePasswordReset: true.",
    ]);
    expect(await runResourcePolicy(userSetPasswordReset, userSet())).toEqual({ violations: [] });
  });
  it("reads the CSV's force_password_reset column", async () => {
    const csv = "username,realm,force_password_reset\nada,,yes\nbob,local,false\ncarl,oidc,\n";
    expect(messages(await runResourcePolicy(userSetPasswordReset, userSet(csv)))).toEqual([
      expect.stringMatching(/^UserSet 'staff': csv row 2 \(line 3\) is a local user without forcePasswordReset/),
    ]);
  });
  it("names many rows briefly: consecutive rows as one run, at most eight runs, then how many are left", async () => {
    const all = `username\n${Array.from({ length: 150 }, (_, i) => `user${i}`).join("\n")}\n`;
    const [whole] = messages(await runResourcePolicy(userSetPasswordReset, userSet(all)));
    expect(whole).toMatch(/^UserSet 'staff': csv rows 1 to 150 \(lines 2 to 151\) are local users without forcePasswordReset: /);
    // Every other row local, from an import where odd rows come from a directory: 75 runs of one row.
    const alternate = `username,realm\n${Array.from({ length: 150 }, (_, i) => `user${i},${i % 2 ? "oidc" : ""}`).join("\n")}\n`;
    const [scattered] = messages(await runResourcePolicy(userSetPasswordReset, userSet(alternate)));
    expect(scattered).toMatch(
      /^UserSet 'staff': csv row 1 \(line 2\), csv row 3 \(line 4\), csv row 5 \(line 6\), .*, csv row 15 \(line 16\) and 67 more rows are local users without forcePasswordReset/,
    );
    expect(scattered.length).toBeLessThan(400);
  });
  it("could not decide while a local row's flag or a realm is not known", async () => {
    expect((await runResourcePolicy(userSetPasswordReset, userSet([{ forcePasswordReset: UNKNOWN_BOOL }]))).undecided).toContain("not known yet");
    expect((await runResourcePolicy(userSetPasswordReset, userSet([{ realm: UNKNOWN, forcePasswordReset: false }]))).undecided).toContain("not known yet");
    expect(await runResourcePolicy(userSetPasswordReset, userSet([{}, { forcePasswordReset: UNKNOWN_BOOL }]))).toEqual({ violations: [] });
  });
});

describe("workspace rules", () => {
  const workspace = (props: Record<string, unknown>): FixtureResource => ({
    kind: "Workspace",
    name: "desk",
    props: { name: "kasmweb/desktop:1.16.0", friendlyName: "Desktop", ...props },
  });

  it("workspace-host-access flags each way a session can reach the agent's host, and passes an ordinary run config", async () => {
    const flagged = await runResourcePolicy(
      workspaceHostAccess,
      workspace({
        runConfig: {
          privileged: true,
          network_mode: "host",
          cap_add: ["cap_sys_admin", "NET_BIND_SERVICE"],
          security_opt: ["seccomp=unconfined"],
          volumes: { "/run/containerd/containerd.sock": {} },
        },
        volumeMappings: { "/var/run/docker.sock": { bind: "/var/run/docker.sock" } },
      }),
      {},
    );
    expect(messages(flagged)).toEqual([
      "Workspace 'desk': its sessions can reach the agent's host: runConfig.privileged is true; runConfig.network_mode is \"host\"; runConfig.cap_add adds SYS_ADMIN; " +
        "runConfig.security_opt has seccomp=unconfined; /var/run/docker.sock (the container runtime's socket) is mounted; /run/containerd/containerd.sock (the container runtime's socket) is mounted.",
    ]);
    expect(
      await runResourcePolicy(
        workspaceHostAccess,
        workspace({ runConfig: { hostname: "kasm", cap_add: ["NET_BIND_SERVICE"] }, volumeMappings: { "/mnt/share": { bind: "/share" } } }),
        {},
      ),
    ).toEqual({ violations: [] });
    expect((await runResourcePolicy(workspaceHostAccess, workspace({ runConfig: UNKNOWN }), {})).undecided).toBe(
      "could not decide for Workspace 'desk': runConfig or volumeMappings is not known yet",
    );
  });

  it("workspace-config-credentials names the keys, never their values, and passes a config without one", async () => {
    const flagged = await runResourcePolicy(
      workspaceConfigCredentials,
      workspace({
        runConfig: { environment: { DB_PASSWORD: "hunter2-hunter2", TZ: "UTC" } },
        execConfig: { first_launch: { environment: { API_TOKEN: "tok-123456" } } },
      }),
      {},
    );
    expect(messages(flagged)).toEqual([
      "Workspace 'desk': runConfig.environment.DB_PASSWORD, execConfig.first_launch.environment.API_TOKEN look like a credential written into the image record, which anyone with Images View and every session's user can read.",
    ]);
    expect(messages(flagged).join("")).not.toMatch(/hunter2|tok-123456/);
    expect(await runResourcePolicy(workspaceConfigCredentials, workspace({ runConfig: { environment: { TZ: "UTC", PASSWORD_POLICY_URL: "" } } }), {})).toEqual({
      violations: [],
    });
  });
});
