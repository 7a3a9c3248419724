/**
 * From an inventory to a Pulumi project: the program a person would have written for the
 * installation (one section per area, resources named from natural keys, references instead of
 * ids wherever the other object is declared too), its data files, and what the summary and the
 * project's README say. Everything is sorted by natural key, so the same installation gives the
 * same bytes. No secret value is ever written: what Kasm holds secret becomes a
 * `config.requireSecret(...)` input, listed for the README.
 */
import { usersCsv } from "../provider/api/batch-csv";
import { fromApiFields } from "../provider/api/records";
import type { BatchUserRow, CastConfig, EgressCredential, EgressGateway, GroupRecord, User } from "../provider/api";
import { ALL_USERS_GROUP } from "../catalogue";
import { IMPORT_KINDS, type ImportKind } from "./kinds";
import { Names, camel } from "./names";
import type { Inventory, Skipped } from "./read";

// --- types ---------------------------------------------------------------------------------------

/** How the program is written. */
export interface ProgramSettings {
  /** The areas to declare. */
  readonly kinds: ReadonlySet<ImportKind>;
  /** `set`: one UserSet from users.csv (default). `each`: one User and one UserGroups per user, from users.json. */
  readonly users: "set" | "each";
  /** The Pulumi project name. */
  readonly project: string;
  /** The installation's address, for the README's settings. */
  readonly baseUrl: string;
  /** The API key's identifier (not its secret), for the README's settings. */
  readonly apiKey: string;
  /** Mark every resource `protect: true`, as `pulumi import` does. */
  readonly protect: boolean;
  /** The version of pulumi-kasm that generated the project (the project depends on `^` it). */
  readonly packageVersion: string;
}

/** A secret the program reads from the stack configuration, for the README's `pulumi config set --secret` lines. */
export interface SecretSetting {
  /** The configuration key, without the project prefix. */
  readonly key: string;
  /** What value to give it. */
  readonly what: string;
}

/** One line of the summary: an area, what was found, what was declared, and why the rest was not. */
export interface SummaryRow {
  readonly kind: string;
  /** Undefined when the area was not read. */
  readonly found?: number;
  readonly declared: number;
  readonly skipped: readonly string[];
}

/** The generated project. */
export interface GeneratedProject {
  /** Relative path -> content, sorted by path. */
  readonly files: ReadonlyMap<string, string>;
  readonly secrets: readonly SecretSetting[];
  readonly summary: readonly SummaryRow[];
}

/** A TypeScript expression written as it is (a reference, a call), as opposed to a literal. */
class Code {
  constructor(readonly text: string) {}
}

type Value = string | number | boolean | Code | readonly Value[] | { readonly [key: string]: Value | undefined };

// --- writing TypeScript --------------------------------------------------------------------------

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A comment's text, safe inside `/* ... *\/` and on one line. */
function commentText(text: string): string {
  return text.replace(/\*\//g, "* /").replace(/[\r\n]+/g, " ");
}

/** A value as TypeScript source, on one line. */
function literal(value: Value): string {
  if (value instanceof Code) return value.text;
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined) as [string, Value][];
    return `{ ${entries.map(([k, v]) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${literal(v)}`).join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** An id with the name of what it is beside it, when the object is not declared in the program. */
function rawId(id: string, name: string | undefined): Code {
  return new Code(name ? `${JSON.stringify(id)} /* ${commentText(name)} */` : JSON.stringify(id));
}

/** `new kasm.Kind("name", { ... }, options);` with one argument per line. */
function declaration(variable: string | undefined, kind: string, name: string, args: Record<string, Value | undefined>, options: string): string {
  const lines = Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `  ${k}: ${literal(v as Value)},`);
  const head = variable ? `const ${variable} = ` : "";
  return `${head}new kasm.${kind}(${JSON.stringify(name)}, {\n${lines.join("\n")}\n}, ${options});`;
}

/** The values of a record that are set (not null, not undefined). */
function setValues<T extends Record<string, unknown>>(values: T): Partial<{ [K in keyof T]: NonNullable<T[K]> }> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined)) as Partial<{ [K in keyof T]: NonNullable<T[K]> }>;
}

/** A stable JSON text: keys in the order given, two-space indent, newline at the end. */
function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

// --- the program -----------------------------------------------------------------------------------

/** Builds the program section by section; one instance per generation. */
class ProgramWriter {
  readonly names = new Names();
  readonly sections: string[] = [];
  readonly files = new Map<string, string>();
  readonly secrets: SecretSetting[] = [];
  readonly summary: SummaryRow[] = [];
  readonly skippedReasons: Skipped[];
  /** Expressions for ids of declared objects, by canonical id. */
  readonly groupRefs = new Map<string, Code>();
  readonly gatewayRefs = new Map<string, Code>();
  readonly providerRefs = new Map<string, Code>();
  /** The variables of the declared groups, which the users depend on. */
  readonly groupVariables: string[] = [];
  /** Canonical user id -> username, for every user read. */
  readonly usernames = new Map<string, string>();
  /** Canonical group id -> name, from user records and the group list. */
  readonly groupNames = new Map<string, string>();
  usersDeclared = false;
  usesReadFile = false;

  constructor(
    readonly inventory: Inventory,
    readonly settings: ProgramSettings,
  ) {
    this.skippedReasons = [...inventory.skipped];
    for (const user of inventory.users ?? []) {
      this.usernames.set(canonical(user.user_id), user.username);
      for (const group of user.groups ?? []) this.groupNames.set(canonical(group.group_id), group.name);
    }
    for (const group of inventory.groups ?? []) this.groupNames.set(canonical(group.group_id), group.name);
  }

  wants(kind: ImportKind): boolean {
    return this.settings.kinds.has(kind);
  }

  /** The options argument of every resource, with `dependsOn` when given. */
  options(dependsOn: readonly string[] = []): string {
    if (dependsOn.length === 0) return "imported";
    return `{ ...imported, dependsOn: [${dependsOn.join(", ")}] }`;
  }

  section(title: string, comment: string, body: string): void {
    const rule = `// --- ${title} `.padEnd(100, "-");
    this.sections.push(`${rule}\n${comment
      .split("\n")
      .map((line) => `// ${line}`.trimEnd())
      .join("\n")}\n${body}`);
  }

  /** A secret input read from the stack configuration; the README says what to set. */
  secret(key: string, what: string): Code {
    this.secrets.push({ key, what });
    return new Code(`config.requireSecret(${JSON.stringify(key)})`);
  }

  row(kind: ImportKind | "licences" | "servers", found: number | undefined, declared: number, extra: readonly string[] = []): void {
    const title = IMPORT_KINDS.find((k) => k.name === kind)?.title ?? (kind === "licences" ? "Licences" : "Servers");
    const reasons = this.skippedReasons.filter((s) => s.kind === kind).map((s) => (s.count !== undefined ? `${s.count}: ${s.reason}` : s.reason));
    this.summary.push({ kind: title, found, declared, skipped: [...reasons, ...extra] });
  }

  userRef(userId: string): Value {
    const id = canonical(userId);
    const username = this.usernames.get(id);
    if (this.usersDeclared && username !== undefined) return new Code(`userId(${JSON.stringify(username)})`);
    return rawId(userId, username);
  }

  groupRef(groupId: string): Value {
    return this.groupRefs.get(canonical(groupId)) ?? rawId(groupId, this.groupNames.get(canonical(groupId)));
  }
}

/** Ids compare in any spelling: 32 hex digits, lower case. */
function canonical(id: string): string {
  return id.replace(/-/g, "").toLowerCase();
}

// --- groups ----------------------------------------------------------------------------------------

/** Groups that must not be owned by a stack: Kasm's own, which it refuses to delete. */
function isSystemGroup(group: GroupRecord): boolean {
  return group.is_system === true || group.name === ALL_USERS_GROUP;
}

function writeGroups(w: ProgramWriter): void {
  const groups = w.inventory.groups;
  if (!w.wants("groups") || groups === undefined) {
    if (w.wants("groups")) w.row("groups", undefined, 0);
    return;
  }
  const declared = groups.filter((g) => !isSystemGroup(g));
  const lines = declared.map((group) => {
    const name = w.names.resource(group.name, "group");
    const variable = w.names.variable(name, "group");
    w.groupRefs.set(canonical(group.group_id), new Code(`${variable}.groupId`));
    w.groupVariables.push(variable);
    return declaration(variable, "Group", name, { name: group.name, ...setValues({ priority: group.priority, description: group.description }), adopt: true }, w.options());
  });
  const system = groups.length - declared.length;
  w.row("groups", groups.length, declared.length, system > 0 ? [`${system}: Kasm's own groups (All Users, Administrators): Kasm refuses to delete them, so no stack should own them`] : []);
  if (lines.length > 0)
    w.section("Groups", "Groups taken over by name. Kasm's own groups (All Users, Administrators) are left out.", `${lines.join("\n")}\n`);
}

// --- users -----------------------------------------------------------------------------------------

/** A user's groups by name, without All Users (every user is in it), sorted. */
function groupNamesOf(user: User): string[] {
  return (user.groups ?? [])
    .map((g) => g.name)
    .filter((name) => name !== ALL_USERS_GROUP)
    .sort();
}

function writeUsers(w: ProgramWriter): void {
  const users = w.inventory.users;
  if (!w.wants("users")) return;
  if (users === undefined) {
    w.row("users", undefined, 0);
    return;
  }
  const withGroups = w.inventory.userGroupsVisible;
  // The set names its groups: they must exist before it is applied.
  const dependsOn = w.groupVariables;
  w.usersDeclared = true;
  w.usesReadFile = true;
  if (w.settings.users === "set") {
    const rows: BatchUserRow[] = users.map((user) => ({
      username: user.username,
      ...(user.realm && user.realm !== "local" ? { realm: user.realm } : {}),
      ...setValues({ first_name: user.first_name || undefined, last_name: user.last_name || undefined, phone_number: user.phone || undefined, organization: user.organization || undefined }),
      ...(withGroups ? { groups: groupNamesOf(user) } : {}),
    }));
    w.files.set("users.csv", usersCsv(rows));
    w.section(
      "Users",
      `${users.length} users in Kasm's import format (users.csv), with their groups: one UserSet, taken over by username.\n` +
        "Kasm cannot show passwords, e-mail addresses, cities, states or countries: those columns are left empty\n" +
        "(not managed). Locking and disabling are not managed by a UserSet: use `--users each` for them.",
      `${declaration("users", "UserSet", "users", { csv: new Code(`readFileSync(path.join(__dirname, "users.csv"), "utf8")`), adopt: true }, w.options(dependsOn))}\n\n` +
        "/** The id of a user of the set, by username (lower case, as Kasm stores it). */\n" +
        "function userId(username: string): pulumi.Output<string> {\n" +
        "  return users.userIds.apply((ids) => ids[username]);\n" +
        "}\n",
    );
  } else {
    const records = users.map((user) => ({
      username: user.username,
      ...setValues({
        firstName: user.first_name || undefined,
        lastName: user.last_name || undefined,
        phone: user.phone || undefined,
        organization: user.organization || undefined,
        locked: user.locked,
        disabled: user.disabled,
      }),
      ...(withGroups ? { groups: groupNamesOf(user) } : {}),
    }));
    w.files.set("users.json", json(records));
    const groupIdTable = new Map<string, Value>();
    for (const user of users) for (const group of user.groups ?? []) if (group.name !== ALL_USERS_GROUP) groupIdTable.set(group.name, w.groupRef(group.group_id));
    const table = [...groupIdTable.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    w.section(
      "Users",
      `${users.length} users from users.json: one User each, taken over by username, and (with their groups) one\n` +
        "UserGroups each, which holds exactly the groups listed (All Users is implicit). Kasm cannot show\n" +
        "passwords: they are not managed here.",
      "/** A group's id by name, for the users' group lists. */\n" +
        `const groupIds: Record<string, pulumi.Input<string>> = {\n${table.map(([name, ref]) => `  ${JSON.stringify(name)}: ${literal(ref)},`).join("\n")}\n};\n` +
        "interface UserRecord extends Omit<kasm.UserArgs, \"adopt\"> {\n  readonly username: string;\n  readonly groups?: string[];\n}\n" +
        'const userRecords: UserRecord[] = JSON.parse(readFileSync(path.join(__dirname, "users.json"), "utf8"));\n' +
        "const userResources = new Map<string, kasm.User>();\n" +
        "for (const { groups, ...record } of userRecords) {\n" +
        `  const user = new kasm.User(record.username, { ...record, adopt: true }, ${w.options(dependsOn)});\n` +
        "  userResources.set(record.username, user);\n" +
        "  if (groups) new kasm.UserGroups(`${record.username}-groups`, { userId: user.userId, groupIds: groups.map((name) => groupIds[name]) }, imported);\n" +
        "}\n\n" +
        "/** The id of a declared user, by username. */\n" +
        "function userId(username: string): pulumi.Output<string> {\n" +
        "  return userResources.get(username)!.userId;\n" +
        "}\n",
    );
  }
  w.row("users", users.length, users.length);
}

// --- user attributes -------------------------------------------------------------------------------

/** The attributes the program can declare, by their input names. */
type AttributeInput = "sshPublicKey" | "defaultImage" | "showTips" | "toggleControlPanel" | "autoLoginWs";

/**
 * What Kasm gives a new user's attributes record. A user whose record still holds exactly this
 * gets no UserAttributes: there is nothing of theirs to take over, and an attributes record that no
 * resource declares is left as Kasm has it (the kind assumes no value for what is left out).
 *
 * Source: the API documentation's "User attributes" record. It gives `ssh_public_key`,
 * `default_image` and `auto_login_ws` as possibly null, which a new user has: no key, no default
 * image, no choice about launching a session at login (`""` counts as null, as the provider
 * compares them). `show_tips` and `toggle_control_panel` are plain booleans whose starting value
 * the documentation does not state; the project's emulator starts both at true (its README, "Users
 * and groups"). An installation that starts a user otherwise has that user declared, as before the
 * constant existed: more resources, still no write on the first `up`.
 */
const NEW_USER_ATTRIBUTES: Readonly<Record<AttributeInput, string | boolean | null>> = {
  sshPublicKey: null,
  defaultImage: null,
  autoLoginWs: null,
  showTips: true,
  toggleControlPanel: true,
};

/** Whether every attribute read is what a new user has (see {@link NEW_USER_ATTRIBUTES}). */
function onlyNewUserValues(values: Partial<Record<AttributeInput, string | boolean>>): boolean {
  return (Object.entries(values) as [AttributeInput, string | boolean][]).every(
    ([key, value]) => (typeof value === "string" && value.trim() === "" ? null : value) === NEW_USER_ATTRIBUTES[key],
  );
}

function writeUserAttributes(w: ProgramWriter): void {
  const attributes = w.inventory.attributes;
  if (!w.wants("user-attributes")) return;
  if (attributes === undefined) {
    w.row("user-attributes", undefined, 0);
    return;
  }
  const byUser: Record<string, Record<string, unknown>> = {};
  const refs: [string, Value][] = [];
  for (const user of w.inventory.users ?? []) {
    const record = attributes.get(user.user_id);
    if (!record) continue;
    const values = setValues({
      ...fromApiFields(record, ["sshPublicKey", "showTips", "toggleControlPanel", "autoLoginWs"]),
      defaultImage: record.default_image,
    });
    if (onlyNewUserValues(values)) continue;
    byUser[user.username] = values;
    refs.push([user.username, w.userRef(user.user_id)]);
  }
  const declared = Object.keys(byUser).length;
  w.row("user-attributes", attributes.size, declared, attributes.size > declared ? [`${attributes.size - declared}: only Kasm's defaults, as every new user has them`] : []);
  if (declared === 0) return;
  w.files.set("user-attributes.json", json(byUser));
  w.usesReadFile = true;
  const userIdOf = w.usersDeclared
    ? "userId(username)"
    : `userIds[username]`;
  const table = w.usersDeclared
    ? ""
    : `/** The users' ids (the users themselves are not declared here). */\nconst userIds: Record<string, string> = {\n${refs
        .map(([username, ref]) => `  ${JSON.stringify(username)}: ${literal(ref)},`)
        .join("\n")}\n};\n`;
  w.section(
    "User attributes",
    "The attributes record of each user who holds more than Kasm's defaults for a new user\n" +
      "(user-attributes.json, by username): the attributes that are set.",
    `${table}const attributes: Record<string, Omit<kasm.UserAttributesArgs, "userId">> = JSON.parse(\n` +
      '  readFileSync(path.join(__dirname, "user-attributes.json"), "utf8"),\n);\n' +
      "for (const [username, values] of Object.entries(attributes)) {\n" +
      `  new kasm.UserAttributes(\`\${username}-attributes\`, { userId: ${userIdOf}, ...values }, imported);\n` +
      "}\n",
  );
}

// --- servers: assignments and draining ---------------------------------------------------------------

function writeServerAssignments(w: ProgramWriter): void {
  if (!w.wants("server-assignments")) return;
  const users = w.inventory.users;
  if (users === undefined || !w.inventory.assignedServersVisible) {
    w.row("server-assignments", undefined, 0);
    return;
  }
  const lines: string[] = [];
  for (const user of users)
    for (const server of [...(user.assigned_servers ?? [])].sort((a, b) => (canonical(a.server_id) < canonical(b.server_id) ? -1 : 1))) {
      const serverName = server.friendly_name || server.hostname || server.server_id.slice(0, 8);
      const name = w.names.resource(`${user.username}-on-${serverName}`, "assignment");
      lines.push(declaration(undefined, "UserServerAssignment", name, { userId: w.userRef(user.user_id), serverId: rawId(server.server_id, serverName), adopt: true }, w.options()));
    }
  w.row("server-assignments", lines.length, lines.length);
  if (lines.length > 0)
    w.section("Server assignments", "Users assigned to servers. Servers themselves are not declared: see README.md.", `${lines.join("\n")}\n`);
}

function writeServerDrains(w: ProgramWriter): void {
  if (!w.wants("server-drains")) return;
  const servers = w.inventory.servers;
  if (servers === undefined) {
    w.row("server-drains", undefined, 0);
    return;
  }
  const unknown = servers.filter((s) => typeof s.is_draining !== "boolean").length;
  const draining = servers.filter((s) => s.is_draining === true);
  const lines = draining.map((server) => {
    const serverName = server.friendly_name || server.hostname || server.server_id.slice(0, 8);
    const name = w.names.resource(`${serverName}-drain`, "drain");
    return declaration(undefined, "ServerDrain", name, { serverId: rawId(server.server_id, serverName), draining: true }, w.options());
  });
  w.row(
    "server-drains",
    servers.length,
    lines.length,
    [
      ...(servers.length - draining.length - unknown > 0 ? [`${servers.length - draining.length - unknown}: not draining`] : []),
      ...(unknown > 0 ? [`${unknown}: Kasm's server record does not show whether it drains (is_draining is not a documented field)`] : []),
    ],
  );
  if (lines.length > 0) w.section("Server draining", "Servers that were draining: they take no new sessions.", `${lines.join("\n")}\n`);
  w.row("servers", servers.length, 0, ["servers are registered from Kasm's CSV import (ServerImport), which cannot take an existing server over; they are referred to by id"]);
}

// --- staging ---------------------------------------------------------------------------------------

function writeStagingConfigs(w: ProgramWriter): void {
  const configs = w.inventory.stagingConfigs;
  if (!w.wants("staging-configs")) return;
  if (configs === undefined) {
    w.row("staging-configs", undefined, 0);
    return;
  }
  const lines = configs.map((config) => {
    const name = w.names.resource(`${config.zone_name ?? config.zone_id.slice(0, 8)}-${config.image_friendly_name ?? config.image_id.slice(0, 8)}`, "staging");
    const values = setValues(
      fromApiFields(config, [
        "numSessions",
        "expiration",
        "allowWsAudio",
        "allowWsUploads",
        "allowWsDownloads",
        "allowWsClipboardDown",
        "allowWsClipboardUp",
        "allowWsMicrophone",
      ]),
    );
    return declaration(undefined, "StagingConfig", name, { zoneId: rawId(config.zone_id, config.zone_name ?? undefined), imageId: rawId(config.image_id, config.image_friendly_name ?? undefined), ...values, adopt: true }, w.options());
  });
  w.row("staging-configs", configs.length, lines.length);
  if (lines.length > 0) w.section("Staging configs", "Sessions kept ready per zone and image, taken over by zone and image.", `${lines.join("\n")}\n`);
}

// --- egress ----------------------------------------------------------------------------------------

function writeEgress(w: ProgramWriter): void {
  const lines: string[] = [];
  const providerNames = new Map<string, string>();
  const providerSlugs = new Map<string, string>();
  for (const provider of w.inventory.egressProviders ?? []) providerNames.set(canonical(provider.egress_provider_id), provider.name);
  const providerRef = (id: string): Value => w.providerRefs.get(canonical(id)) ?? rawId(id, providerNames.get(canonical(id)));
  const providerSlug = (id: string) => providerSlugs.get(canonical(id)) ?? providerNames.get(canonical(id)) ?? id.slice(0, 8);

  if (w.wants("egress-providers")) {
    const providers = w.inventory.egressProviders;
    for (const provider of providers ?? []) {
      const name = w.names.resource(provider.name, "egress-provider");
      const variable = w.names.variable(name, "provider");
      providerSlugs.set(canonical(provider.egress_provider_id), name);
      w.providerRefs.set(canonical(provider.egress_provider_id), new Code(`${variable}.egressProviderId`));
      lines.push(
        declaration(variable, "EgressProvider", name, { name: provider.name, egressProviderType: provider.egress_provider_type, enabled: provider.enabled, adopt: true }, w.options()),
      );
    }
    w.row("egress-providers", providers?.length, providers?.length ?? 0);
  }

  if (w.wants("egress-gateways")) {
    const gateways = w.inventory.egressGateways;
    for (const gateway of gateways ?? []) lines.push(gatewayDeclaration(w, gateway, providerRef(gateway.egress_provider_id), providerSlug(gateway.egress_provider_id)));
    w.row("egress-gateways", gateways?.length, gateways?.length ?? 0);
  }

  const gatewayList = (allowAll: boolean | null | undefined, gateways: readonly { egress_gateway_id: string; name: string }[] | null | undefined): Record<string, Value> | undefined => {
    if (allowAll === true) return { allowAllGateways: true };
    if (!gateways || gateways.length === 0) return undefined;
    const ids = [...gateways].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { allowAllGateways: false, selectedGateways: ids.map((g) => w.gatewayRefs.get(canonical(g.egress_gateway_id)) ?? rawId(g.egress_gateway_id, g.name)) };
  };
  const targetOf = (record: { user_id?: string | null; group_id?: string | null; image_id?: string | null }): [Record<string, Value>, string] => {
    if (record.user_id) return [{ userId: w.userRef(record.user_id) }, w.usernames.get(canonical(record.user_id)) ?? `user-${record.user_id.slice(0, 8)}`];
    if (record.group_id) return [{ groupId: w.groupRef(record.group_id) }, w.groupNames.get(canonical(record.group_id)) ?? `group-${record.group_id.slice(0, 8)}`];
    return [{ imageId: rawId(record.image_id ?? "", undefined) }, `image-${(record.image_id ?? "").slice(0, 8)}`];
  };

  if (w.wants("egress-mappings")) {
    const mappings = w.inventory.egressMappings;
    let unreadable = 0;
    for (const mapping of mappings ?? []) {
      const gateways = gatewayList(mapping.allow_all_gateways, mapping.egress_gateways);
      if (!gateways) {
        unreadable++;
        continue;
      }
      const [target, targetName] = targetOf(mapping);
      const name = w.names.resource(`${providerSlug(mapping.egress_provider_id)}-for-${targetName}`, "egress-mapping");
      lines.push(
        declaration(undefined, "EgressProviderMapping", name, { egressProviderId: providerRef(mapping.egress_provider_id), ...target, enabled: mapping.enabled, ...gateways, adopt: true }, w.options()),
      );
    }
    w.row("egress-mappings", mappings?.length, (mappings?.length ?? 0) - unreadable, unreadable > 0 ? [`${unreadable}: Kasm's answer does not list the mapping's gateways, so it cannot be declared as it is`] : []);
  }

  if (w.wants("egress-credentials")) {
    const credentials = w.inventory.egressCredentials;
    let unreadable = 0;
    for (const credential of credentials ?? []) {
      const gateways = gatewayList(credential.allow_all_gateways, credential.egress_gateways);
      if (!gateways) {
        unreadable++;
        continue;
      }
      lines.push(credentialDeclaration(w, credential, providerRef(credential.egress_provider_id), providerSlug(credential.egress_provider_id), targetOf(credential)[0], gateways));
    }
    w.row(
      "egress-credentials",
      credentials?.length,
      (credentials?.length ?? 0) - unreadable,
      unreadable > 0 ? [`${unreadable}: Kasm's answer does not list the credential's gateways, so it cannot be declared as it is`] : [],
    );
  }
  if (lines.length > 0)
    w.section(
      "Egress",
      "Egress (VPN) providers, their gateways, who is routed through them, and the credentials used on them.\n" +
        "Secrets Kasm holds (private keys, passwords) are read from the stack configuration: see README.md.",
      `${lines.join("\n")}\n`,
    );
}

function gatewayDeclaration(w: ProgramWriter, gateway: EgressGateway, provider: Value, providerSlug: string): string {
  const name = w.names.resource(`${providerSlug}-${gateway.name}`, "egress-gateway");
  const variable = w.names.variable(name, "gateway");
  w.gatewayRefs.set(canonical(gateway.egress_gateway_id), new Code(`${variable}.egressGatewayId`));
  // A WireGuard configuration with its PrivateKey line is a secret as a whole.
  const config =
    gateway.config && /^\s*PrivateKey\s*=/m.test(gateway.config)
      ? w.secret(`${camel(name)}Config`, `the whole configuration of egress gateway "${gateway.name}" (it holds a PrivateKey line)`)
      : (gateway.config ?? undefined);
  return declaration(
    variable,
    "EgressGateway",
    name,
    { egressProviderId: provider, name: gateway.name, enabled: gateway.enabled, ...setValues({ country: gateway.country, city: gateway.city }), config, adopt: true },
    w.options(),
  );
}

function credentialDeclaration(
  w: ProgramWriter,
  credential: EgressCredential,
  provider: Value,
  providerSlug: string,
  target: Record<string, Value>,
  gateways: Record<string, Value>,
): string {
  const name = w.names.resource(`${providerSlug}-${credential.name}-credential`, "egress-credential");
  const key = camel(name);
  const label = `egress credential "${credential.name}"`;
  const secrets: Record<string, Value | undefined> = {
    // Kasm masks the password: whether one is set shows, its value does not.
    password: credential.password ? w.secret(`${key}Password`, `the password of ${label} on the provider's gateways`) : undefined,
    wireguardPrivateKey: credential.wireguard_private_key ? w.secret(`${key}WireguardPrivateKey`, `the WireGuard private key of ${label}`) : undefined,
    meshKey: credential.mesh_key ? w.secret(`${key}MeshKey`, `the mesh key of ${label}`) : undefined,
    customCredential:
      credential.custom_credential !== undefined && credential.custom_credential !== null && credential.custom_credential !== ""
        ? w.secret(`${key}CustomCredential`, `the custom credential data of ${label}`)
        : undefined,
  };
  return declaration(
    undefined,
    "EgressCredential",
    name,
    {
      egressProviderId: provider,
      name: credential.name,
      ...target,
      ...setValues({ username: credential.username || undefined }),
      ...secrets,
      enabled: credential.enabled,
      ...gateways,
      ...setValues({ limitActiveConnections: credential.limit_active_connections, activeConnectionLimit: credential.active_connection_limit }),
      adopt: true,
    },
    w.options(),
  );
}

// --- casting ---------------------------------------------------------------------------------------

function writeCastConfigs(w: ProgramWriter): void {
  const configs = w.inventory.castConfigs;
  if (!w.wants("cast-configs")) return;
  if (configs === undefined) {
    w.row("cast-configs", undefined, 0);
    return;
  }
  const lines = configs.map((config: CastConfig) => {
    const name = w.names.resource(`cast-${config.key}`, "cast");
    const values = setValues(
      fromApiFields(config, [
        "castingConfigName",
        "key",
        "allowedReferrers",
        "limitSessions",
        "limitIps",
        "ipRequestLimit",
        "ipRequestSeconds",
        "errorUrl",
        "enableSharing",
        "disableControlPanel",
        "disableTips",
        "disableFixedRes",
        "allowAnonymous",
        "requireRecaptcha",
        "wsUrl",
        "dynamicWsUrl",
        "dynamicCtrNetwork",
        "allowResume",
        "enforceClientSettings",
        "allowWsAudio",
        "allowWsUploads",
        "allowWsDownloads",
        "allowWsClipboardDown",
        "allowWsClipboardUp",
        "allowWsMicrophone",
        "allowWsSharing",
        "wsAudioDefaultOn",
        "wsImeModeDefaultOn",
        "validUntil",
      ]),
    );
    return declaration(
      undefined,
      "CastConfig",
      name,
      {
        castingConfigName: values.castingConfigName,
        imageId: rawId(config.image_id, config.image_friendly_name ?? undefined),
        ...values,
        // A counter Kasm counts down: declared only where the link limits sessions (then it is required).
        sessionRemaining: config.limit_sessions === true ? (config.session_remaining ?? 0) : undefined,
        groupId: config.group_id ? w.groupRef(config.group_id) : undefined,
        adopt: true,
      },
      w.options(),
    );
  });
  w.row("cast-configs", configs.length, lines.length);
  if (lines.length > 0) w.section("Casting", "Casting links, taken over by key.", `${lines.join("\n")}\n`);
}

// --- the project -----------------------------------------------------------------------------------

/** The program, its data files, the project files and what the summary and the README say. */
export function generateProject(inventory: Inventory, settings: ProgramSettings): GeneratedProject {
  const w = new ProgramWriter(inventory, settings);
  // In dependency order: what is referred to is declared first.
  writeGroups(w);
  writeUsers(w);
  writeUserAttributes(w);
  writeServerAssignments(w);
  writeServerDrains(w);
  writeStagingConfigs(w);
  writeEgress(w);
  writeCastConfigs(w);
  w.row("licences", inventory.licences, 0);

  const imports = [
    ...(w.usesReadFile ? ['import { readFileSync } from "node:fs";', 'import * as path from "node:path";'] : []),
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as kasm from "pulumi-kasm";',
  ];
  const index = [
    "/**",
    ` * The Kasm installation ${settings.baseUrl} as code, taken over by kasm-import.`,
    " *",
    " * Every resource has `adopt: true`: the first `pulumi up` takes the existing objects over and changes",
    " * nothing in Kasm. From then on, this program is what Kasm should hold: edit it, preview, up.",
    " * README.md lists the settings to give first, and what was not taken over.",
    " */",
    ...imports,
    "",
    "const config = new pulumi.Config();",
    settings.protect
      ? "/** Taken-over objects are protected, as `pulumi import` does: `pulumi destroy` cannot delete them by mistake. */\nconst imported: pulumi.CustomResourceOptions = { protect: true };"
      : "/** The options of every taken-over object. */\nconst imported: pulumi.CustomResourceOptions = {};",
    "",
    w.sections.join("\n"),
  ].join("\n");

  const files = new Map<string, string>(w.files);
  files.set("index.ts", index);
  files.set("Pulumi.yaml", `name: ${settings.project}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\ndescription: The Kasm installation ${settings.baseUrl} as code\n`);
  files.set(
    "package.json",
    json({
      name: settings.project,
      private: true,
      main: "index.ts",
      dependencies: { "@pulumi/pulumi": "^3.216.0", "pulumi-kasm": `^${settings.packageVersion}` },
      devDependencies: { "@types/node": "^20.19.0", typescript: "~5.9.3" },
    }),
  );
  files.set(
    "tsconfig.json",
    json({
      // What `pulumi up` (ts-node) and `tsc` both read, with TypeScript 5 or 6 (a devDependency
      // above): Pulumi's template with the module resolution TypeScript 6 still takes (it refuses
      // `node`, that is node10, with TS5107; Pulumi's runtime fills in `nodenext` when none is
      // given, which `commonjs` cannot go with). TypeScript 6 reads Node's types only when
      // `types` names them.
      compilerOptions: {
        strict: true,
        outDir: "bin",
        target: "es2022",
        module: "node16",
        moduleResolution: "node16",
        types: ["node"],
        sourceMap: true,
        skipLibCheck: true,
        forceConsistentCasingInFileNames: true,
      },
      files: ["index.ts"],
    }),
  );
  files.set(".gitignore", "node_modules/\nbin/\n");
  files.set("README.md", projectReadme(settings, inventory, w.secrets, w.summary));
  return { files: new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), secrets: w.secrets, summary: w.summary };
}

/** The runner's line for `operation`: the project's settings as `--config`, each secret as `--secret`. */
function runnerLine(operation: "preview" | "up", settings: ProgramSettings, inventory: Inventory, secrets: readonly SecretSetting[]): string {
  return [
    `npx kasm-test-engine ${operation} --stack dev --state .state/dev.json`,
    `--config kasm:baseUrl=${settings.baseUrl} --config kasm:apiKey=${settings.apiKey}`,
    ...(inventory.apiNames === "product" ? ["--config kasm:apiNames=product"] : []),
    ...secrets.map((s) => `--secret ${s.key}='...'`),
  ].join(" ");
}

/** The generated project's README: what it is, the settings to give, and what was not taken over. */
function projectReadme(settings: ProgramSettings, inventory: Inventory, secrets: readonly SecretSetting[], summary: readonly SummaryRow[]): string {
  const config = [
    `pulumi config set kasm:baseUrl ${settings.baseUrl}`,
    `pulumi config set kasm:apiKey ${settings.apiKey}`,
    "pulumi config set --secret kasm:apiKeySecret   # the API key's secret, typed at the prompt",
    ...(inventory.apiNames === "product" ? ["pulumi config set kasm:apiNames product"] : []),
    ...secrets.map((s) => `pulumi config set --secret ${s.key}   # ${s.what}`),
  ];
  const skipped = summary.flatMap((row) => row.skipped.map((reason) => `- ${row.kind}: ${reason}`));
  return [
    `# ${settings.project}`,
    "",
    `The Kasm installation at ${settings.baseUrl}, as a Pulumi program, generated by \`kasm-import\` from what the`,
    "installation held. Every resource has `adopt: true`, so the first `pulumi up` takes the existing",
    "objects over without changing them.",
    "",
    "## Before the first run",
    "",
    "```sh",
    `npm install /path/to/pulumi-kasm-${settings.packageVersion}.tgz   # pulumi-kasm is not on the npm registry yet: the package file it came from; then the rest`,
    "pulumi stack init dev",
    ...config,
    "pulumi preview   # shows every resource to be created: created means taken over, nothing changes in Kasm",
    "pulumi up",
    "```",
    "",
    "Without the Pulumi CLI, pulumi-kasm's own runner does the same, its state in `.state/dev.json` (pulumi-kasm's",
    "README, \"Run your own program against the emulator\", says what it does and does not do):",
    "",
    "```sh",
    "export PULUMI_CONFIG_PASSPHRASE='encrypts the secrets in .state/dev.json'",
    "export KASM_API_KEY_SECRET='the API key secret'   # kept off the command line",
    runnerLine("preview", settings, inventory, secrets),
    runnerLine("up", settings, inventory, secrets),
    "```",
    "",
    secrets.length > 0
      ? "Kasm holds the secrets above but the program never contains them: give each the value it has in Kasm\n" +
        "(an egress credential that is taken over must match what Kasm holds, or its `up` fails and names it)."
      : "The program holds no secret: only the API key's secret is needed.",
    "",
    "## If Kasm changed since the import",
    "",
    "The program holds Kasm's values as they were when it was written. If someone changed an object in Kasm since",
    "(a staging config's sessions raised by hand), the preview still shows a create, and warns for that object,",
    "naming each field the `up` will set back to the program's value, with both values (a secret's are never",
    "shown). Edit the program to keep Kasm's value, or let the `up` apply the program's. To have such a take-over",
    "refused instead, so that nothing in Kasm changes until the program matches it:",
    "",
    "```sh",
    "pulumi config set kasm:takeOverChanges refuse",
    "```",
    "",
    "## What is in it",
    "",
    "| area | found | declared |",
    "| --- | --- | --- |",
    ...summary.map((row) => `| ${row.kind} | ${row.found ?? "not read"} | ${row.declared} |`),
    "",
    "## What was not taken over, and why",
    "",
    ...(skipped.length > 0 ? skipped : ["Nothing."]),
    "",
    "## After the first run",
    "",
    "Edit `index.ts` (and the data files beside it), then `pulumi preview` and `pulumi up`: Pulumi changes",
    "exactly what you changed.",
    ...(settings.protect
      ? [
          "Resources are protected (`protect: true`), as `pulumi import` leaves them: a declaration removed by",
          "mistake, or `pulumi destroy`, fails instead of deleting from Kasm. To delete one on purpose, run",
          "`pulumi state unprotect <urn>` first, then remove its declaration.",
        ]
      : ["Resources are not protected: removing a declaration deletes the object from Kasm on the next `up`."]),
    "",
  ].join("\n");
}
