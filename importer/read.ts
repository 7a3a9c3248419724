/**
 * Reading an installation for `kasm-import`: one listing per area where the API lists (users
 * 1,000 a page), per-object reads only where it cannot (a user's attributes, a server's draining
 * flag, a group's workspaces). A key that may not view an area loses that area only: the reason, naming the permission,
 * goes into the inventory and the rest is read. Wrong credentials or an unreachable Kasm stop
 * everything: nothing could be generated that says what the installation holds.
 */
import {
  KasmPermissionError,
  type EgressCredential,
  type EgressGateway,
  type EgressProvider,
  type EgressProviderMapping,
  type GroupImage,
  type GroupRecord,
  type Image,
  type KasmClient,
  type Server,
  type StagingConfig,
  type User,
  type UserAttributes,
  type CastConfig,
} from "../provider/api";
import type { ImportKind } from "./kinds";
import { NEEDS_USERS } from "./kinds";

/** Something the installation holds that the generated program does not declare, and why. */
export interface Skipped {
  readonly kind: ImportKind | "licences" | "servers";
  /** How many objects, when known. */
  readonly count?: number;
  readonly reason: string;
}

/** What was read of an installation. An area left undefined was not read (not asked for, or refused). */
export interface Inventory {
  readonly apiNames: "spec" | "product";
  /** Non-anonymous users, sorted by username. */
  readonly users?: readonly User[];
  /** Whether the user records list their groups (Groups View). */
  readonly userGroupsVisible: boolean;
  /** Whether the user records list their servers (Servers View). */
  readonly assignedServersVisible: boolean;
  /** Groups as the released product lists them, sorted by name (read for the groups or the workspace groups). */
  readonly groups?: readonly GroupRecord[];
  /** Workspace images as the released product lists them, sorted by friendly name, container name and id. */
  readonly images?: readonly Image[];
  /** Group id (as Kasm wrote it) -> the workspaces its members may launch, for every group read, each sorted by image id. */
  readonly groupImages?: ReadonlyMap<string, readonly GroupImage[]>;
  /** User id (as Kasm wrote it) -> attributes. */
  readonly attributes?: ReadonlyMap<string, UserAttributes>;
  /** The servers some user is assigned to, as `get_servers` answers, sorted by id. */
  readonly servers?: readonly Server[];
  readonly stagingConfigs?: readonly StagingConfig[];
  readonly egressProviders?: readonly EgressProvider[];
  readonly egressGateways?: readonly EgressGateway[];
  readonly egressMappings?: readonly EgressProviderMapping[];
  readonly egressCredentials?: readonly EgressCredential[];
  readonly castConfigs?: readonly CastConfig[];
  /** How many licences a released Kasm lists (undefined: not listed). */
  readonly licences?: number;
  /** What is not declared, and why (areas refused, objects that cannot be taken over). */
  readonly skipped: readonly Skipped[];
}

/** Told as reading goes: an area and how many objects have been read of it so far. */
export type ProgressListener = (kind: ImportKind, count: number, done: boolean) => void;

/** What {@link readInstallation} reads, and how. */
export interface ReadOptions {
  readonly kinds: ReadonlySet<ImportKind>;
  /** Per-object reads running at once. Default: 8 (the client's default connection limit). */
  readonly concurrency?: number;
  readonly onProgress?: ProgressListener;
}

/** The View permission refused, in words for the summary: the permission and what it would have read. */
function refusal(error: KasmPermissionError, what: string): string {
  const grant = error.toGrant.length > 0 ? error.toGrant.join(", ") : error.requiredPermissions.join(", ");
  return `the API key may not read ${what}: grant it ${grant}`;
}

/** Run `read`; a permission refusal becomes a skipped area instead of an error. */
async function unlessRefused<T>(skipped: Skipped[], kind: Skipped["kind"], what: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof KasmPermissionError) {
      skipped.push({ kind, reason: refusal(error, what) });
      return undefined;
    }
    throw error;
  }
}

/** `read` for each item, at most `concurrency` at once, results in the items' order. */
async function eachAtMost<T, R>(items: readonly T[], concurrency: number, read: (item: T) => Promise<R>, onEach: (done: number) => void): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await read(items[index]);
      onEach(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

const byText = <T>(key: (item: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/**
 * Read what the areas in `options.kinds` need. Throws on refused credentials, an unreachable Kasm
 * or any other error that is not a refused View permission.
 */
export async function readInstallation(client: KasmClient, options: ReadOptions): Promise<Inventory> {
  const { kinds } = options;
  const concurrency = options.concurrency ?? 8;
  const progress = options.onProgress ?? (() => {});
  const skipped: Skipped[] = [];
  const product = client.transport.apiNames === "product";
  const wants = (kind: ImportKind) => kinds.has(kind);

  // Users first: attributes, assignments and drains hang off them, and their records are the only
  // place the documented API shows groups (a name and an id inside each user).
  let users: User[] | undefined;
  if (NEEDS_USERS.some(wants)) {
    users = await unlessRefused(skipped, "users", "users (Users View)", async () => {
      const read: User[] = [];
      for await (const page of client.users.userPages()) {
        read.push(...page.users);
        progress("users", read.length, false);
      }
      return read.sort(byText((u) => u.username));
    });
    if (users) progress("users", users.length, true);
  }
  const userGroupsVisible = users !== undefined && (users.length === 0 || users.every((u) => Array.isArray(u.groups)));
  const assignedServersVisible = users !== undefined && (users.length === 0 || users.every((u) => Array.isArray(u.assigned_servers)));
  if (users && users.length > 0 && !userGroupsVisible && (wants("users") || wants("groups")))
    skipped.push({ kind: "users", reason: "the users' groups are not declared: the API key may not see them (grant it Groups View)" });

  // The workspace groups hang off the groups: the list is read for either area.
  let groups: GroupRecord[] | undefined;
  if (wants("groups") || wants("workspace-groups")) {
    if (!product) {
      if (wants("groups"))
        skipped.push({
          kind: "groups",
          reason: "the documented API cannot list or create groups: users.csv names them, and they must exist (on a released Kasm, set kasm:apiNames=product to manage them)",
        });
    } else {
      groups = await unlessRefused(skipped, wants("groups") ? "groups" : "workspace-groups", "groups (Groups View)", () => client.groups.getGroups());
      groups?.sort(byText((g) => g.name));
      if (groups && wants("groups")) progress("groups", groups.length, true);
    }
  }

  let images: Image[] | undefined;
  if (wants("workspaces")) {
    if (!product)
      skipped.push({
        kind: "workspaces",
        reason: "the documented API lists images but cannot create or change one, so a Workspace needs a released Kasm (set kasm:apiNames=product to take them over)",
      });
    else {
      images = await unlessRefused(skipped, "workspaces", "workspace images (Images View)", () => client.images.getImages());
      images?.sort(byText((i) => `${i.friendly_name ?? ""}\u0000${i.name}\u0000${i.image_id}`));
      if (images) progress("workspaces", images.length, true);
    }
  }

  let groupImages: Map<string, GroupImage[]> | undefined;
  if (wants("workspace-groups")) {
    if (!product)
      skipped.push({
        kind: "workspace-groups",
        reason: "the documented API cannot read which groups may launch a workspace (on a released Kasm, set kasm:apiNames=product to take them over)",
      });
    else if (groups) {
      // The API lists one group's workspaces at a time: one read per group, Kasm's own groups too.
      const list = groups;
      const read = await unlessRefused(skipped, "workspace-groups", "the groups' workspaces (Groups View)", () =>
        eachAtMost(list, concurrency, (group) => client.groups.getImagesGroup({ group_id: group.group_id }), (done) => progress("workspace-groups", done, false)),
      );
      if (read) {
        groupImages = new Map(list.map((group, i) => [group.group_id, read[i].sort(byText((image) => image.image_id.replace(/-/g, "").toLowerCase()))]));
        progress("workspace-groups", read.length, true);
      }
    }
  }

  let attributes: Map<string, UserAttributes> | undefined;
  if (wants("user-attributes") && users) {
    const list = users;
    const read = await unlessRefused(skipped, "user-attributes", "user attributes (Users View)", () =>
      eachAtMost(list, concurrency, (user) => client.users.getAttributes({ user_id: user.user_id }), (done) => progress("user-attributes", done, false)),
    );
    if (read) {
      attributes = new Map(list.map((user, i) => [user.user_id, read[i]]));
      progress("user-attributes", read.length, true);
    }
  }

  let servers: Server[] | undefined;
  if (wants("server-assignments") || wants("server-drains")) {
    if (users && !assignedServersVisible && users.length > 0)
      skipped.push({ kind: "server-assignments", reason: "the users' servers are not visible: the API key may not see them (grant it Servers View)" });
    if (wants("server-drains") && users && assignedServersVisible) {
      const ids = [...new Set(users.flatMap((u) => (u.assigned_servers ?? []).map((s) => s.server_id)))].sort();
      servers = await unlessRefused(skipped, "server-drains", "servers (Servers View)", () =>
        eachAtMost(ids, concurrency, (server_id) => client.servers.getServers({ server_id }), (done) => progress("server-drains", done, false)),
      );
      if (servers) progress("server-drains", servers.length, true);
    }
  }

  const list = async <T>(kind: ImportKind, what: string, read: () => Promise<T[]>, key: (item: T) => string): Promise<T[] | undefined> => {
    if (!wants(kind)) return undefined;
    const items = await unlessRefused(skipped, kind, what, read);
    items?.sort(byText(key));
    if (items) progress(kind, items.length, true);
    return items;
  };
  const stagingConfigs = await list(
    "staging-configs",
    "staging configs (Staging View)",
    () => client.staging.getStagingConfigs(),
    (c) => `${c.zone_name ?? ""}\u0000${c.image_friendly_name ?? ""}\u0000${c.staging_config_id}`,
  );
  const egressProviders = await list("egress-providers", "egress providers (Egress Providers View)", () => client.egress.getEgressProviders(), (p) => p.name);
  const egressGateways = await list(
    "egress-gateways",
    "egress gateways (Egress Gateways View)",
    () => client.egress.getEgressGateways(),
    (g) => `${g.egress_provider_id}\u0000${g.name}`,
  );
  const egressMappings = await list(
    "egress-mappings",
    "egress provider mappings (Egress Providers View)",
    () => client.egress.getEgressProviderMapping(),
    (m) => `${m.egress_provider_id}\u0000${m.user_id ?? ""}\u0000${m.group_id ?? ""}\u0000${m.image_id ?? ""}`,
  );
  const egressCredentials = await list(
    "egress-credentials",
    "egress credentials (Egress Credentials View)",
    () => client.egress.getEgressCredentials(),
    (c) => `${c.egress_provider_id}\u0000${c.name}`,
  );
  let castConfigs: CastConfig[] | undefined;
  if (wants("cast-configs")) {
    if (!product)
      skipped.push({
        kind: "cast-configs",
        reason: "the documented API cannot read cast configs back (on a released Kasm, set kasm:apiNames=product to take them over)",
      });
    else castConfigs = await list("cast-configs", "cast configs (Casting View)", () => client.casting.getCastConfigs(), (c) => c.key);
  }

  // Licences can be listed by a released Kasm, never taken over: activation needs the key.
  let licenceCount: number | undefined;
  if (product) {
    const licences = await unlessRefused(skipped, "licences", "licences (Licenses View)", () => client.licenses.getLicenses());
    licenceCount = licences?.length;
    if (licences && licences.length > 0)
      skipped.push({
        kind: "licences",
        count: licences.length,
        reason: "an activation cannot be read back: declare a LicenseActivation with the activation key you hold if you want it in code",
      });
  } else
    skipped.push({ kind: "licences", reason: "the documented API cannot list licences; declare a LicenseActivation with your activation key if you want it in code" });

  return {
    apiNames: product ? "product" : "spec",
    users,
    userGroupsVisible,
    assignedServersVisible,
    groups,
    images,
    groupImages,
    attributes,
    servers,
    stagingConfigs,
    egressProviders,
    egressGateways,
    egressMappings,
    egressCredentials,
    castConfigs,
    licences: licenceCount,
    skipped,
  };
}
