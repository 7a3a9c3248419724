/**
 * The program's sections about people: the groups (an area, see area.ts), the users (one UserSet
 * from users.csv, or one User and UserGroups each from users.json) and the users' attributes
 * records (steps of their own: data files read in loops, which the generic writer does not write).
 * Apart from the other areas because the users are what the rest refers to: they are written
 * first, and their declarations decide how later sections name a user or a group (`userId(...)`,
 * `group.groupId`).
 */
import { usersCsv } from "../../provider/api/batch-csv";
import { groupShown, userAttributesShown, userShown, type BatchUserRow, type GroupRecord, type User } from "../../provider/api";
import { ALL_USERS_GROUP } from "../../permissions";
import type { Area } from "./area";
import { Code, canonical, declaration, json, literal, setValues, type Declaration, type ProgramWriter, type Value } from "./writer";

// --- types ---------------------------------------------------------------------------------------

/** The attributes the program can declare, by their input names. */
type AttributeInput = "sshPublicKey" | "defaultImage" | "showTips" | "toggleControlPanel" | "autoLoginWs";

// --- helpers -------------------------------------------------------------------------------------

/** Groups that must not be owned by a stack: Kasm's own, which it refuses to delete. */
function isSystemGroup(group: GroupRecord): boolean {
  return group.is_system === true || group.name === ALL_USERS_GROUP;
}

/** A user's groups by name, without All Users (every user is in it), sorted. */
function groupNamesOf(user: User): string[] {
  return (user.groups ?? [])
    .map((g) => g.name)
    .filter((name) => name !== ALL_USERS_GROUP)
    .sort();
}

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

/**
 * A user's inputs, as the kind reads the record back. An empty name, phone or organization (Kasm's
 * value for one never given) is left out rather than declared "": the program leaves it unmanaged.
 */
function userInputs(user: User): { username: string } & Record<string, string | boolean> {
  const { username, ...shown } = userShown(user);
  return {
    username,
    ...setValues({
      ...shown,
      firstName: shown.firstName || undefined,
      lastName: shown.lastName || undefined,
      phone: shown.phone || undefined,
      organization: shown.organization || undefined,
    }),
  } as { username: string } & Record<string, string | boolean>;
}

/**
 * The users on the native provider: one User each, and (with their groups) one UserGroups each
 * that refers to the User and to the declared groups, each its own declaration, as every language
 * writes them (YAML has no loops; a person of Python or Go writes each user out too).
 */
function writeNativeUsers(w: ProgramWriter, users: readonly User[], withGroups: boolean): void {
  const items: Declaration[] = [];
  for (const user of users) {
    const name = w.resourceName(user.username, "user");
    const variable = w.names.variable(name, "user");
    items.push(w.declare(variable, "User", name, user.user_id, { ...userInputs(user), adopt: true }));
    if (!withGroups) continue;
    const groups = (user.groups ?? [])
      .filter((group) => group.name !== ALL_USERS_GROUP)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((group) => w.groupRef(group.group_id));
    const groupsName = w.names.resource(`${name}-groups`, `${name}-groups`);
    items.push(w.declare(undefined, "UserGroups", groupsName, canonical(user.user_id), { userId: w.userRef(user.user_id), groupIds: groups }));
  }
  w.section(
    "Users",
    `${users.length} users: one User each, taken over by username${withGroups ? ", and one UserGroups each, which holds exactly the\ngroups listed (All Users is implicit)" : ""}. Kasm cannot show passwords: they are not managed here.`,
    items,
  );
}

// --- the sections --------------------------------------------------------------------------------

/** The groups, taken over by name, except Kasm's own; each declared group's id becomes a reference. */
export const GROUPS: Area<GroupRecord> = {
  area: "groups",
  kind: "Group",
  section: { title: "Groups", comment: "Groups taken over by name. Kasm's own groups (All Users, Administrators) are left out." },
  variablePrefix: "group",
  records: (inventory) => inventory.groups,
  notDeclared: (group) =>
    isSystemGroup(group) ? "Kasm's own groups (All Users, Administrators): Kasm refuses to delete them, so no stack should own them" : undefined,
  name: (group) => [group.name, "group"],
  id: (group) => group.group_id,
  // The kind's own reading of the record; what Kasm shows none of is left out.
  inputs: (group) => ({ ...setValues(groupShown(group)), adopt: true }),
};

/** The users: one UserSet from users.csv (`--users set`), or one User and UserGroups each from users.json. */
export function writeUsers(w: ProgramWriter): void {
  const users = w.wanted("users", w.inventory.users);
  if (users === undefined) return;
  const withGroups = w.inventory.userGroupsVisible;
  if (w.native) {
    writeNativeUsers(w, users, withGroups);
    w.row("users", users.length, users.length);
    return;
  }
  // The set names its groups: they must exist before it is applied.
  const dependsOn = w.variablesOf("Group");
  w.usersDeclared = true;
  w.usesReadFile = true;
  if (w.settings.users === "set") {
    const rows: BatchUserRow[] = users.map((user) => ({
      username: user.username,
      ...(user.realm && user.realm !== "local" ? { realm: user.realm } : {}),
      ...setValues({
        first_name: user.first_name || undefined,
        last_name: user.last_name || undefined,
        phone_number: user.phone || undefined,
        organization: user.organization || undefined,
      }),
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
    // The kind's own reading of the record.
    const records = users.map((user) => ({ ...userInputs(user), ...(withGroups ? { groups: groupNamesOf(user) } : {}) }));
    w.files.set("users.json", json(records));
    for (const user of users) {
      w.importable("User", w.prefixed(user.username), user.user_id);
      if (withGroups) w.importable("UserGroups", w.prefixed(`${user.username}-groups`), canonical(user.user_id));
    }
    const groupIdTable = new Map<string, Value>();
    for (const user of users)
      for (const group of user.groups ?? []) if (group.name !== ALL_USERS_GROUP) groupIdTable.set(group.name, w.groupRef(group.group_id));
    const table = [...groupIdTable.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    w.section(
      "Users",
      `${users.length} users from users.json: one User each, taken over by username, and (with their groups) one\n` +
        "UserGroups each, which holds exactly the groups listed (All Users is implicit). Kasm cannot show\n" +
        "passwords: they are not managed here.",
      "/** A group's id by name, for the users' group lists. */\n" +
        `const groupIds: Record<string, pulumi.Input<string>> = {\n${table.map(([name, ref]) => `  ${JSON.stringify(name)}: ${literal(ref)},`).join("\n")}\n};\n` +
        'interface UserRecord extends Omit<kasm.UserArgs, "adopt"> {\n  readonly username: string;\n  readonly groups?: string[];\n}\n' +
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

/** The attributes records that hold more than a new user's defaults, from user-attributes.json. */
export function writeUserAttributes(w: ProgramWriter): void {
  const attributes = w.wanted("user-attributes", w.inventory.attributes);
  if (attributes === undefined) return;
  const byUser: Record<string, Record<string, unknown>> = {};
  const refs: [string, Value][] = [];
  const items: Declaration[] = [];
  for (const user of w.inventory.users ?? []) {
    const record = attributes.get(user.user_id);
    if (!record) continue;
    // The kind's own reading of the record; what Kasm shows none of is left out.
    const values = setValues(userAttributesShown(record));
    if (onlyNewUserValues(values)) continue;
    byUser[user.username] = values;
    if (w.native) {
      const name = w.resourceName(`${user.username}-attributes`, "attributes");
      items.push(w.declare(undefined, "UserAttributes", name, canonical(user.user_id), { userId: w.userRef(user.user_id), ...values }));
      continue;
    }
    w.importable("UserAttributes", w.prefixed(`${user.username}-attributes`), canonical(user.user_id));
    refs.push([user.username, w.userRef(user.user_id)]);
  }
  const declared = Object.keys(byUser).length;
  w.row(
    "user-attributes",
    attributes.size,
    declared,
    attributes.size > declared ? [`${attributes.size - declared}: only Kasm's defaults, as every new user has them`] : [],
  );
  if (declared === 0) return;
  if (w.native) {
    w.section("User attributes", "The attributes record of each user who holds more than Kasm's defaults for a new user: the attributes that are set.", items);
    return;
  }
  w.files.set("user-attributes.json", json(byUser));
  w.usesReadFile = true;
  const userIdOf = w.usersDeclared ? "userId(username)" : `userIds[username]`;
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
