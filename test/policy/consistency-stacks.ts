/**
 * The random stacks of the consistency test (`consistency.test.ts`): a small deterministic
 * generator and the stacks it builds, each resource with its properties, the one field its update
 * changes, and whether its user has running sessions when deleted.
 */
import type { KasmKind } from "../../permissions";
import { TEST_API_NAMES } from "../helpers/vocabulary";
import { IDS } from "./helpers";

/** A value that is the id of another resource of the stack. */
interface Ref {
  readonly $ref: string;
}
const ref = (name: string): Ref => ({ $ref: name });
/** Whether a value is a {@link Ref}. */
export const isRef = (v: unknown): v is Ref => typeof v === "object" && v !== null && "$ref" in v;

/** One resource of a random stack. */
export interface Spec {
  readonly kind: KasmKind;
  readonly name: string;
  readonly props: Record<string, unknown>;
  /** The one field the update changes (empty: nothing to change). */
  readonly update: Record<string, unknown>;
  /** A User (or the first user of a UserSet) that has a running session when it is deleted. */
  readonly sessions?: boolean;
}

const RANK: Partial<Record<KasmKind, number>> = { User: 0, EgressProvider: 1, EgressGateway: 2, GroupMembership: 3, UserGroups: 3 };

/** A small deterministic generator (mulberry32). */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    coin: (p = 0.5) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    subset: <T>(items: readonly T[]): T[] => items.filter(() => next() < 0.5),
  };
}

const EXISTING_GROUPS: Record<string, string[]> = { [IDS.admin1]: [IDS.administrators], [IDS.plain1]: [], [IDS.plain2]: [IDS.devs] };

/** A random stack of `size` resources (plus its users), with unique natural keys per case (`tag`). */
export function buildStack(seed: number, size: number, tag: string, registryUrl = "http://127.0.0.1:1/"): { specs: Spec[]; usersWithSessions: string[] } {
  const r = prng(seed);
  const specs: Spec[] = [];
  const usersWithSessions: string[] = [];
  const userCount = Math.floor(r.next() * 3);
  for (let i = 0; i < userCount; i++) {
    const sessions = r.coin(0.3);
    const username = `${tag}u${i}`;
    if (sessions && r.coin()) usersWithSessions.push(username);
    specs.push({
      kind: "User",
      name: `u${i}`,
      props: { username, firstName: "Ada", ...(sessions ? { forceDelete: true } : r.coin(0.3) ? { forceDelete: false } : {}) },
      update: { firstName: "Grace" },
      sessions,
    });
  }
  const users: (string | Ref)[] = [...specs.map((s) => ref(s.name)), IDS.plain1, IDS.plain2, IDS.admin1];
  const key = (u: string | Ref) => (isRef(u) ? `ref:${u.$ref}` : u);
  const groupLinks = new Map<string, "membership" | "groups">();
  const memberships = new Set<string>();
  const attributes = new Set<string>();
  const assignments = new Set<string>();
  const stagedImages = new Set<string>();
  const drained = new Set<string>();
  const mappedTargets = new Set<string>();
  let casts = 0;
  let credentials = 0;
  let serverImports = 0;
  let userSet = false;
  let license = false;
  let egressProvider = false;
  let gateway = false;
  let group = false;
  let workspace = false;
  let groupWorkspace = false;
  let registry = false;
  /** The stack's egress provider, which gateways, mappings and credentials need: added once, when first needed. */
  const addEgressProvider = () => {
    if (egressProvider) return;
    egressProvider = true;
    specs.push({ kind: "EgressProvider", name: "ep", props: { name: `${tag}ep`, egressProviderType: "wireguard", enabled: true }, update: { enabled: false } });
  };

  for (let n = 0; specs.length < userCount + size && n < size * 10; n++) {
    const kind = r.pick<KasmKind>([
      "UserAttributes",
      "GroupMembership",
      "UserGroups",
      "UserServerAssignment",
      "StagingConfig",
      "CastConfig",
      "ServerDrain",
      "LicenseActivation",
      "EgressProvider",
      "EgressGateway",
      "EgressProviderMapping",
      "EgressCredential",
      "ServerImport",
      "UserSet",
      // Groups and workspaces are a released Kasm's operations: only a product run manages them.
      ...(TEST_API_NAMES === "product" ? (["Group", "Workspace", "GroupWorkspace", "WorkspaceRegistry"] as const) : []),
    ]);
    const name = `${kind[0].toLowerCase()}${kind.slice(1)}${specs.length}`;
    const user = r.pick(users);
    const userKey = key(user);
    switch (kind) {
      case "UserAttributes": {
        if (attributes.has(userKey)) continue;
        attributes.add(userKey);
        const props: Record<string, unknown> = { userId: user };
        for (const [k, v] of Object.entries({ showTips: r.coin(), toggleControlPanel: r.coin(), autoLoginWs: r.coin(), defaultImage: IDS.image1 }))
          if (r.coin()) props[k] = v;
        const flip = ["showTips", "toggleControlPanel", "autoLoginWs"].find((k) => k in props);
        const update = flip ? { [flip]: !props[flip] } : "defaultImage" in props ? { defaultImage: IDS.image2 } : {};
        specs.push({ kind, name, props, update });
        break;
      }
      case "GroupMembership": {
        if (groupLinks.get(userKey) === "groups") continue;
        const current = isRef(user) ? [] : EXISTING_GROUPS[user];
        const group = r.pick([IDS.administrators, IDS.devs, IDS.ops]);
        if (current.includes(group) || memberships.has(`${userKey}:${group}`)) continue;
        memberships.add(`${userKey}:${group}`);
        groupLinks.set(userKey, "membership");
        specs.push({ kind, name, props: { userId: user, groupId: group }, update: { adopt: true } });
        break;
      }
      case "UserGroups": {
        if (groupLinks.has(userKey)) continue;
        groupLinks.set(userKey, "groups");
        const groupIds = r.subset([IDS.administrators, IDS.devs, IDS.ops]);
        const toggled = r.pick([IDS.devs, IDS.ops]);
        const next = groupIds.includes(toggled) ? groupIds.filter((g) => g !== toggled) : [...groupIds, toggled];
        specs.push({ kind, name, props: { userId: user, groupIds }, update: { groupIds: next } });
        break;
      }
      case "UserServerAssignment": {
        const server = r.pick([IDS.server1, IDS.server2]);
        if (assignments.has(`${userKey}:${server}`)) continue;
        assignments.add(`${userKey}:${server}`);
        specs.push({ kind, name, props: { userId: user, serverId: server }, update: { adopt: true } });
        break;
      }
      case "StagingConfig": {
        const image = r.pick([IDS.image1, IDS.image2]);
        if (stagedImages.has(image)) continue;
        stagedImages.add(image);
        const numSessions = Math.floor(r.next() * 3);
        specs.push({
          kind,
          name,
          props: { zoneId: IDS.zone, imageId: image, numSessions, expiration: 1, allowWsUploads: r.coin() },
          update: { numSessions: numSessions + 1 },
        });
        break;
      }
      case "CastConfig": {
        if (casts >= 2) continue;
        casts += 1;
        const props: Record<string, unknown> = {
          castingConfigName: `${tag}cast${casts}`,
          imageId: r.pick([IDS.image1, IDS.image2]),
          key: `${tag}key${casts}`,
          allowAnonymous: r.coin(),
        };
        if (r.coin(0.3)) props.groupId = IDS.devs;
        // An update of a setting, or a move to another group (Groups Modify on both, which the native preview notes).
        specs.push({ kind, name, props, update: r.coin(0.3) ? { groupId: IDS.ops } : { disableTips: true } });
        break;
      }
      case "ServerDrain": {
        const server = r.pick([IDS.server1, IDS.server2]);
        if (drained.has(server)) continue;
        drained.add(server);
        specs.push({ kind, name, props: { serverId: server, draining: true }, update: { draining: false } });
        break;
      }
      case "ServerImport": {
        if (serverImports >= 2) continue;
        serverImports += 1;
        const servers = Array.from({ length: 1 + Math.floor(r.next() * 3) }, (_, j) => {
          const row: Record<string, unknown> = {
            name: `${tag}srv${serverImports}-${j}`,
            ipHostname: `10.1.${serverImports}.${j + 1}`,
            port: 22,
            zoneName: "zone1",
            connectionType: r.pick(["SSH", "RDP"]),
          };
          if (r.coin(0.4)) row.assignedUsername = r.pick(["plain1", "plain2", "admin1"]);
          if (r.coin(0.3)) row.labels = ["lab"];
          return row;
        });
        const changed = servers.map((row, j) => (j === 0 ? { ...row, port: 2222 } : row));
        specs.push({ kind, name, props: { servers }, update: { servers: changed } });
        break;
      }
      case "UserSet": {
        if (userSet) continue;
        userSet = true;
        const users = Array.from({ length: 1 + Math.floor(r.next() * 3) }, (_, j) => {
          const row: Record<string, unknown> = { username: `${tag}set${j}`, firstName: "Ada" };
          if (r.coin(0.6)) row.groups = r.subset(["devs", "ops", "Administrators", "All Users"]);
          if (r.coin(0.5)) row.forcePasswordReset = r.coin();
          return row;
        });
        const sessions = r.coin(0.3);
        if (sessions && r.coin()) usersWithSessions.push(`${tag}set0`);
        const props: Record<string, unknown> = { users, ...(sessions ? { forceDelete: true } : r.coin(0.3) ? { forceDelete: false } : {}) };
        const change = r.pick(["rename", "add", "remove"] as const);
        const next =
          change === "rename" || (change === "remove" && users.length === 1)
            ? users.map((u, j) => (j === 0 ? { ...u, firstName: "Grace" } : u))
            : change === "add"
              ? [...users, { username: `${tag}set${users.length}`, lastName: "Hopper" }]
              : users.slice(0, -1);
        specs.push({ kind, name, props, update: { users: next }, sessions });
        break;
      }
      case "LicenseActivation": {
        if (license) continue;
        license = true;
        specs.push({ kind, name, props: { activationKey: "ACTIVATION-KEY-1", seats: 1, issuedTo: "team a" }, update: { issuedTo: "team b" } });
        break;
      }
      case "Group": {
        if (group) continue;
        group = true;
        specs.push({ kind, name, props: { name: `${tag}grp`, priority: 20, description: "made by the stack" }, update: { priority: 21 } });
        break;
      }
      case "Workspace": {
        // Compute-related fields or not, and an update of one (memory: Images Modify Resources too) or of the description.
        if (workspace) continue;
        workspace = true;
        const props: Record<string, unknown> = { name: `kasmweb/${tag}app:1.0`, friendlyName: `${tag}app`, description: "made by the stack" };
        if (r.coin()) props.memory = 2_000_000_000;
        if (r.coin()) props.cores = 2;
        const update = r.coin() ? { description: "changed by the stack" } : r.coin() ? { memory: 3_000_000_000 } : { cores: 4 };
        specs.push({ kind, name, props, update });
        break;
      }
      case "GroupWorkspace": {
        if (groupWorkspace) continue;
        groupWorkspace = true;
        specs.push({ kind, name, props: { groupId: r.pick([IDS.allUsers, IDS.administrators, IDS.devs]), imageId: IDS.image1 }, update: { adopt: true } });
        break;
      }
      case "WorkspaceRegistry": {
        // The registry the test serves on loopback (`registryUrl`). With autoUpdate declared, the update
        // switches it (registry_auto_updates); without, it changes adopt only (nothing is sent: the
        // URL and the channel would replace it).
        if (registry) continue;
        registry = true;
        const autoUpdate = r.coin();
        const declared = r.coin();
        const props: Record<string, unknown> = declared ? { url: registryUrl, autoUpdate } : { url: registryUrl };
        specs.push({ kind, name, props, update: declared ? { autoUpdate: !autoUpdate } : { adopt: true } });
        break;
      }
      case "EgressProvider": {
        if (egressProvider) continue;
        addEgressProvider();
        break;
      }
      case "EgressGateway": {
        if (gateway) continue;
        addEgressProvider();
        gateway = true;
        specs.push({ kind, name, props: { egressProviderId: ref("ep"), name: `${tag}gw`, country: "NL", city: "Utrecht" }, update: { city: "Delft" } });
        break;
      }
      case "EgressProviderMapping":
      case "EgressCredential": {
        addEgressProvider();
        const target = r.pick<[string, string | Ref]>([
          ["userId", user],
          ["groupId", r.pick([IDS.allUsers, IDS.administrators, IDS.devs])],
          ["imageId", IDS.image1],
        ]);
        const targetKey = `${target[0]}:${key(target[1])}`;
        if (kind === "EgressProviderMapping") {
          if (mappedTargets.has(targetKey)) continue;
          mappedTargets.add(targetKey);
          specs.push({
            kind,
            name,
            props: { egressProviderId: ref("ep"), [target[0]]: target[1], allowAllGateways: true, enabled: true },
            update: { enabled: false },
          });
        } else {
          credentials += 1;
          const props: Record<string, unknown> = {
            egressProviderId: ref("ep"),
            name: `${tag}cred${credentials}`,
            [target[0]]: target[1],
            allowAllGateways: true,
            username: "vpn",
            password: "not-a-real-secret",
          };
          if (r.coin()) Object.assign(props, { limitActiveConnections: true, activeConnectionLimit: 2 });
          specs.push({ kind, name, props, update: { name: `${tag}cred${credentials}b` } });
        }
        break;
      }
    }
  }
  // A user whose groups the stack changes may gain or lose Global Admin, which the pack cannot
  // follow to a username a ServerImport row assigns: such rows assign nobody.
  const regrouped = new Set(
    [...groupLinks.keys()].map((k) => Object.entries({ admin1: IDS.admin1, plain1: IDS.plain1, plain2: IDS.plain2 }).find(([, id]) => id === k)?.[0]),
  );
  for (const s of specs) {
    if (s.kind !== "ServerImport") continue;
    for (const list of [s.props.servers, s.update.servers] as Record<string, unknown>[][])
      for (const row of list) if (regrouped.has(row.assignedUsername as string)) delete row.assignedUsername;
  }
  specs.sort((a, b) => (RANK[a.kind] ?? 4) - (RANK[b.kind] ?? 4));
  return { specs, usersWithSessions };
}
