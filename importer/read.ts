/**
 * Reading an installation for `kasm-import`: one listing per area where the API lists (users
 * 1,000 a page), per-object reads only where it cannot (a user's attributes, a server's draining
 * flag, a group's workspaces). The plain areas are records of their listing (`Listing`: the call
 * through the client, the permission it needs, whether only a released Kasm has it, the sort key),
 * read by one function; the users and what hangs off them (attributes, servers, the groups'
 * workspaces) are read in order of their own. A key that may not view an area loses that area
 * only: the reason, naming the permission, goes into the inventory and the rest is read. Wrong
 * credentials or an unreachable Kasm stop everything: nothing could be generated that says what
 * the installation holds.
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
  type Registry,
  type Server,
  type StagingConfig,
  type User,
  type UserAttributes,
  type CastConfig,
} from "../provider/api";
import { canonicalId, sameId } from "../permissions/planned-calls";
import type { ImportKind } from "./kinds";
import { NEEDS_USERS } from "./kinds";

/** Something the installation holds that the generated program does not declare, and why. */
export interface Skipped {
  readonly kind: ImportKind | "licenses" | "servers";
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
  /** Workspace registries as the released product lists them, sorted by URL. */
  readonly registries?: readonly Registry[];
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
  /** How many licenses a released Kasm lists (undefined: not listed). */
  readonly licenses?: number;
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

const byText =
  <T>(key: (item: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

// --- the plain areas -----------------------------------------------------------------------------

/** A plain area: one listing through the client, sorted by natural key. */
interface Listing<Record> {
  readonly area: ImportKind;
  /** What the listing reads and the View permission it needs, for a refusal's words. */
  readonly what: string;
  /** Why the documented API cannot read it, when only a released Kasm can (`kasm:apiNames product`). */
  readonly productOnly?: string;
  list(client: KasmClient): Promise<Record[]>;
  /**
   * The key the records are sorted by, so that the same installation gives the same program;
   * `earlier` holds what the listings before it read (a gateway sorts by its provider's name, a
   * mapping by its target's name too).
   */
  sortKey(record: Record, earlier: ReadEarlier): string;
}

/** What a sort key may use of the listings read before its own. */
interface ReadEarlier {
  readonly egressProviders?: readonly EgressProvider[];
  /** The users, with the groups each is in (the documented API's only view of groups' names). */
  readonly users?: readonly User[];
  readonly groups?: readonly GroupRecord[];
  readonly images?: readonly Image[];
}

/**
 * Where the records of an egress provider sort: by the provider's name when the providers were
 * listed (as the program declares them), else by its id alone. The id follows the name, so that
 * the order stays whole whatever the names.
 */
function providerOrder(providerId: string, earlier: ReadEarlier): string {
  const provider = earlier.egressProviders?.find((p) => canonicalId(p.egress_provider_id) === canonicalId(providerId));
  return `${provider?.name ?? ""}\u0000${providerId}`;
}

/**
 * Where a mapping sorts within its provider: users, then groups, then images; users and groups by
 * the name the generated program gives them (a username, a group's name) and images by their
 * friendly name, when that was read, else by id alone. The id follows the name, so that the order
 * stays whole whatever was read.
 */
function targetOrder(mapping: EgressProviderMapping, earlier: ReadEarlier): string {
  const named = (rank: number, name: string | null | undefined, id: string) => `${rank}\u0000${name ?? ""}\u0000${canonicalId(id)}`;
  if (mapping.user_id) return named(1, earlier.users?.find((u) => sameId(u.user_id, mapping.user_id))?.username, mapping.user_id);
  if (mapping.group_id) {
    const group =
      earlier.groups?.find((g) => sameId(g.group_id, mapping.group_id)) ??
      earlier.users?.flatMap((u) => u.groups ?? []).find((g) => sameId(g.group_id, mapping.group_id));
    return named(2, group?.name, mapping.group_id);
  }
  return named(3, earlier.images?.find((i) => sameId(i.image_id, mapping.image_id))?.friendly_name, mapping.image_id ?? "");
}

/** The friendly name of each image of the list that has one, by canonical id. */
export function imageFriendlyNames(images: readonly Image[]): Map<string, string> {
  return new Map(images.flatMap((image) => (image.friendly_name ? [[canonicalId(image.image_id), image.friendly_name] as const] : [])));
}

/** The name a group's workspace goes by: the image list's friendly name, else the one the group's record gives. */
export function groupImageName(image: GroupImage, friendlyNames: ReadonlyMap<string, string>): string | undefined {
  return friendlyNames.get(canonicalId(image.image_id)) ?? image.image_friendly_name ?? image.friendly_name ?? undefined;
}

const WORKSPACES: Listing<Image> = {
  area: "workspaces",
  what: "workspace images (Images View)",
  productOnly:
    "the documented API lists images but cannot create or change one, so a Workspace needs a released Kasm (set kasm:apiNames=product to take them over)",
  list: (client) => client.images.getImages(),
  sortKey: (image) => `${image.friendly_name ?? ""}\u0000${image.name ?? ""}\u0000${image.image_id}`,
};

const WORKSPACE_REGISTRIES: Listing<Registry> = {
  area: "workspace-registries",
  what: "workspace registries (Registries View, which needs Images View, System View and Agents View)",
  productOnly: "the documented API has no registry operations, so a WorkspaceRegistry needs a released Kasm (set kasm:apiNames=product to take them over)",
  list: (client) => client.images.getRegistries(),
  sortKey: (registry) => `${registry.registry_url}\u0000${registry.registry_id}`,
};

const STAGING_CONFIGS: Listing<StagingConfig> = {
  area: "staging-configs",
  what: "staging configs (Staging View)",
  list: (client) => client.staging.getStagingConfigs(),
  sortKey: (config) => `${config.zone_name ?? ""}\u0000${config.image_friendly_name ?? ""}\u0000${config.staging_config_id}`,
};

const EGRESS_PROVIDERS: Listing<EgressProvider> = {
  area: "egress-providers",
  what: "egress providers (Egress Providers View)",
  list: (client) => client.egress.getEgressProviders(),
  sortKey: (provider) => provider.name,
};

const EGRESS_GATEWAYS: Listing<EgressGateway> = {
  area: "egress-gateways",
  what: "egress gateways (Egress Gateways View)",
  list: (client) => client.egress.getEgressGateways(),
  sortKey: (gateway, earlier) => `${providerOrder(gateway.egress_provider_id, earlier)}\u0000${gateway.name}`,
};

const EGRESS_MAPPINGS: Listing<EgressProviderMapping> = {
  area: "egress-mappings",
  what: "egress provider mappings (Egress Providers View)",
  list: (client) => client.egress.getEgressProviderMapping(),
  sortKey: (mapping, earlier) => `${providerOrder(mapping.egress_provider_id, earlier)}\u0000${targetOrder(mapping, earlier)}`,
};

const EGRESS_CREDENTIALS: Listing<EgressCredential> = {
  area: "egress-credentials",
  what: "egress credentials (Egress Credentials View)",
  list: (client) => client.egress.getEgressCredentials(),
  sortKey: (credential, earlier) => `${providerOrder(credential.egress_provider_id, earlier)}\u0000${credential.name}`,
};

const CAST_CONFIGS: Listing<CastConfig> = {
  area: "cast-configs",
  what: "cast configs (Casting View)",
  productOnly: "the documented API cannot read cast configs back (on a released Kasm, set kasm:apiNames=product to take them over)",
  list: (client) => client.casting.getCastConfigs(),
  sortKey: (config) => config.key,
};

// --- reading -------------------------------------------------------------------------------------

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
  /** A plain area's records, sorted; undefined when not wanted, not listed by the vocabulary, or refused. */
  const readListing = async <T>(listing: Listing<T>, earlier: ReadEarlier = {}): Promise<T[] | undefined> => {
    if (!wants(listing.area)) return undefined;
    if (listing.productOnly !== undefined && !product) {
      skipped.push({ kind: listing.area, reason: listing.productOnly });
      return undefined;
    }
    const records = await unlessRefused(skipped, listing.area, listing.what, () => listing.list(client));
    records?.sort(byText((record) => listing.sortKey(record, earlier)));
    if (records) progress(listing.area, records.length, true);
    return records;
  };

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
          reason:
            "the documented API cannot list or create groups: users.csv names them, and they must exist (on a released Kasm, set kasm:apiNames=product to manage them)",
        });
    } else {
      groups = await unlessRefused(skipped, wants("groups") ? "groups" : "workspace-groups", "groups (Groups View)", () => client.groups.getGroups());
      groups?.sort(byText((g) => g.name));
      if (groups && wants("groups")) progress("groups", groups.length, true);
    }
  }

  const images = await readListing(WORKSPACES);

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
        eachAtMost(
          list,
          concurrency,
          (group) => client.groups.getImagesGroup({ group_id: group.group_id }),
          (done) => progress("workspace-groups", done, false),
        ),
      );
      if (read) {
        // Each group's workspaces by the name the program gives them, then id.
        const friendlyNames = imageFriendlyNames(images ?? []);
        groupImages = new Map(
          list.map((group, i) => [
            group.group_id,
            read[i].sort(byText((image) => `${groupImageName(image, friendlyNames) ?? ""}\u0000${canonicalId(image.image_id)}`)),
          ]),
        );
        progress("workspace-groups", read.length, true);
      }
    }
  }

  let attributes: Map<string, UserAttributes> | undefined;
  if (wants("user-attributes") && users) {
    const list = users;
    const read = await unlessRefused(skipped, "user-attributes", "user attributes (Users View)", () =>
      eachAtMost(
        list,
        concurrency,
        (user) => client.users.getAttributes({ user_id: user.user_id }),
        (done) => progress("user-attributes", done, false),
      ),
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
        eachAtMost(
          ids,
          concurrency,
          (server_id) => client.servers.getServers({ server_id }),
          (done) => progress("server-drains", done, false),
        ),
      );
      if (servers) progress("server-drains", servers.length, true);
    }
  }

  const registries = await readListing(WORKSPACE_REGISTRIES);
  const stagingConfigs = await readListing(STAGING_CONFIGS);
  const egressProviders = await readListing(EGRESS_PROVIDERS);
  const egressGateways = await readListing(EGRESS_GATEWAYS, { egressProviders });
  const egressMappings = await readListing(EGRESS_MAPPINGS, { egressProviders, users, groups, images });
  const egressCredentials = await readListing(EGRESS_CREDENTIALS, { egressProviders });
  const castConfigs = await readListing(CAST_CONFIGS);

  // Licenses can be listed by a released Kasm, never taken over: activation needs the key.
  let licenseCount: number | undefined;
  if (product) {
    const licenses = await unlessRefused(skipped, "licenses", "licenses (Licenses View)", () => client.licenses.getLicenses());
    licenseCount = licenses?.length;
    if (licenses && licenses.length > 0)
      skipped.push({
        kind: "licenses",
        count: licenses.length,
        reason: "an activation cannot be read back: declare a LicenseActivation with the activation key you hold if you want it in code",
      });
  } else
    skipped.push({
      kind: "licenses",
      reason: "the documented API cannot list licenses; declare a LicenseActivation with your activation key if you want it in code",
    });

  return {
    apiNames: product ? "product" : "spec",
    users,
    userGroupsVisible,
    assignedServersVisible,
    groups,
    images,
    registries,
    groupImages,
    attributes,
    servers,
    stagingConfigs,
    egressProviders,
    egressGateways,
    egressMappings,
    egressCredentials,
    castConfigs,
    licenses: licenseCount,
    skipped,
  };
}
