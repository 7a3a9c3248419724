/**
 * Compliant fixtures shared by the policy tests: a stack and key for the permissions pack, and
 * resources the hardening rules pass.
 */
import { IDS, UNKNOWN, type FixtureResource } from "./helpers";

export const PASSWORD = "correct-horse-battery-staple-7";

/** A compliant stack: a user in a group with attributes, a casting config, an egress provider mapped to a group. */
export function stack(change: (resources: FixtureResource[]) => void = () => {}): FixtureResource[] {
  const resources: FixtureResource[] = [
    { kind: "User", name: "alice", props: { username: "alice", password: PASSWORD, userId: UNKNOWN, __provider: "function secret() {}" } },
    { kind: "GroupMembership", name: "alice-devs", props: { userId: UNKNOWN, groupId: IDS.devs }, from: { userId: ["alice"] } },
    { kind: "UserAttributes", name: "alice-attrs", props: { userId: UNKNOWN, showTips: false }, from: { userId: ["alice"] } },
    { kind: "CastConfig", name: "kiosk", props: { castingConfigName: "Kiosk", imageId: IDS.image1, key: "kiosk-key", allowAnonymous: false } },
    { kind: "EgressProvider", name: "vpn", props: { name: "vpn", egressProviderType: "wireguard" } },
    {
      kind: "EgressProviderMapping",
      name: "vpn-devs",
      props: { egressProviderId: UNKNOWN, groupId: IDS.devs, allowAllGateways: true },
      from: { egressProviderId: ["vpn"] },
    },
    { kind: "Other", name: "unrelated", props: { length: 20 } },
  ];
  change(resources);
  return resources;
}

export const set = (resources: FixtureResource[], name: string, props: Record<string, unknown>) => {
  const r = resources.find((x) => x.name === name)!;
  Object.assign(r.props, props);
};

/** Exactly what the compliant stack needs, written out by hand from the spec. */
export const NEEDED = [
  "Users View",
  "Users Create",
  "Users Modify",
  "Users Delete",
  "Groups View",
  "Groups Modify",
  "Casting View",
  "Casting Create",
  "Casting Modify",
  "Casting Delete",
  "Egress Providers View",
  "Egress Providers Create",
  "Egress Providers Modify",
  "Egress Providers Delete",
];

export function config(change: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    permissions: NEEDED,
    readOnly: false,
    systemGroupIds: { allUsers: IDS.allUsers, administrators: IDS.administrators },
    globalAdminUserIds: [IDS.admin1],
    ...change,
  };
}

export const without = (...names: string[]) => NEEDED.filter((p) => !names.includes(p));

// --- hardening ---------------------------------------------------------------------------------

export const CAST_KEY = "kiosk-secret-key";
export const USER_PASSWORD = "a-long-enough-password-9";

/** A compliant anonymous casting config. */
export function cast(props: Record<string, unknown> = {}): FixtureResource {
  return {
    kind: "CastConfig",
    name: "kiosk",
    props: {
      castingConfigName: "Kiosk",
      imageId: IDS.image1,
      key: CAST_KEY,
      allowAnonymous: true,
      limitIps: true,
      ipRequestLimit: 5,
      ipRequestSeconds: 3600,
      validUntil: "2999-01-01 00:00:00",
      allowedReferrers: ["app.example.com"],
      requireRecaptcha: true,
      enableSharing: false,
      enforceClientSettings: true,
      allowWsClipboardUp: false,
      allowWsUploads: false,
      dynamicWsUrl: false,
      dynamicCtrNetwork: false,
      ...props,
    },
  };
}

export function staging(props: Record<string, unknown> = {}, name = "staged"): FixtureResource {
  return {
    kind: "StagingConfig",
    name,
    props: { zoneId: IDS.zone, imageId: IDS.image1, numSessions: 2, expiration: 1, allowWsClipboardUp: false, allowWsUploads: false, ...props },
  };
}

export function credential(props: Record<string, unknown> = {}): FixtureResource {
  return {
    kind: "EgressCredential",
    name: "cred",
    props: {
      egressProviderId: IDS.zone,
      name: "devs",
      groupId: IDS.devs,
      password: "vpn-password-xyz",
      limitActiveConnections: true,
      activeConnectionLimit: 2,
      ...props,
    },
  };
}

export const user = (props: Record<string, unknown> = {}): FixtureResource => ({
  kind: "User",
  name: "bob",
  props: { username: "bob", password: USER_PASSWORD, ...props },
});
