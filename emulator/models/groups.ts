/**
 * Groups. All Users and Administrators always exist. The spec's API creates no groups (they come
 * from the seed or the data file) but users join and leave them; in product mode the product's
 * create_group, update_group and delete_group change them, with 1.15's rules.
 */
import { ADMINISTRATORS_GROUP, ALL_USERS_GROUP, SYSTEM_GROUP_NAMES } from "../../permissions";
import { RefusedWith200, UnhandledException } from "../errors";
import { byId, canonicalId, newId, orUnknown, pythonUuid, type Table } from "./common";

/** A group as stored; `is_system` marks All Users and Administrators. */
export interface GroupRecord {
  group_id: string;
  name: string;
  description: string | null;
  /** 1 (first) to 4095 (last): which group's settings win for a user in several. */
  priority: number;
  is_system: boolean;
  /**
   * The product's free-form metadata; absent in seeded groups and groups stored before product
   * mode ({} then); null for a group create_group was sent none for (1.15 stores what it is sent).
   */
  group_metadata?: Record<string, unknown> | null;
}

/**
 * The priorities and descriptions the system groups get. The sources are silent: Administrators
 * come first and All Users last, at the product's default priority, so that any other group's
 * settings win over the ones every user has.
 */
const SYSTEM_GROUPS: Readonly<Record<(typeof SYSTEM_GROUP_NAMES)[number], { priority: number; description: string }>> = {
  [ALL_USERS_GROUP]: { priority: 4095, description: "Every user belongs to this group" },
  [ADMINISTRATORS_GROUP]: { priority: 1, description: "Administrators of the installation" },
};

/** The product's bounds of a group priority (1.15 refuses anything outside 0 < priority < 4096). */
const PRIORITY_MIN = 1;
const PRIORITY_MAX = 4095;

/** PostgreSQL's integer column (`groups.priority`, 1.15's data model): -2^31 to 2^31 - 1. */
const INTEGER_RANGE = 2 ** 31;

/** How Python's `%s` writes a value of a request: `None`, `True`, or the value. */
function pythonText(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  return String(value);
}

/**
 * Python's `int(value)` for a value of a JSON body: a number (a fraction truncated), a boolean, or
 * text holding a whole number (spaces around, a sign, `_` between digits); undefined where Python
 * raises (other text, null, a list, an object).
 */
function pythonInt(value: unknown): number | undefined {
  if (typeof value === "number") return Math.trunc(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" && /^\s*[+-]?\d+(?:_\d+)*\s*$/.test(value)) return Number(value.replace(/_/g, ""));
  return undefined;
}

/**
 * What the product's database stores for a priority 1.15 hands it as sent, or the call fails
 * ({@link UnhandledException}) where PostgreSQL refuses it: a whole number, or text of one (spaces
 * around and a sign allowed; no `_`); a fraction is rounded, half away from zero, as PostgreSQL
 * assigns a numeric value to an integer column. A boolean, other text and anything beyond the
 * integer column's range fail.
 */
function storedPriority(value: unknown): number {
  let stored: number | undefined;
  if (typeof value === "number") stored = Math.sign(value) * Math.round(Math.abs(value));
  else if (typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value)) stored = Number(value);
  if (stored === undefined || stored < -INTEGER_RANGE || stored >= INTEGER_RANGE) throw new UnhandledException();
  return stored;
}

/** What other areas keep about a group, reached as callbacks so that this model imports none of them. */
export interface GroupDependents {
  /** How many users are members of the group. */
  memberCount(groupId: string): number;
  /** The ids of the cast configs that name the group. */
  castConfigIds(groupId: string): string[];
  /** Drop the memberships and egress bindings of a deleted group, as the product's foreign keys cascade. */
  forgetGroup(groupId: string): void;
}

/** A group as create_group takes it (the product's fields). */
export interface NewGroupInput {
  name?: string;
  /** As the request sent it: 1.15 reads it with Python's `int()` and stores it as sent (see {@link storedPriority}). */
  priority?: unknown;
  description?: string | null;
  group_metadata?: Record<string, unknown> | null;
}

/** The part of the state this model owns. */
export interface GroupsTables {
  groups: Table<GroupRecord>;
}

/** A group as a seed describes it. */
export interface GroupInput {
  group_id?: string;
  name: string;
  description?: string;
  priority?: number;
}

/** The groups: lookups by id and name, the system groups, the seeded ones, and the product's changes. */
export class GroupsModel {
  constructor(
    private readonly tables: GroupsTables,
    private readonly dependents?: GroupDependents,
  ) {
    this.ensureSystemGroups();
  }

  /** All Users and Administrators always exist, whatever the seed or data file says. */
  private ensureSystemGroups(): void {
    for (const name of SYSTEM_GROUP_NAMES) {
      const existing = this.groupByName(name);
      if (existing) {
        existing.is_system = true;
        continue;
      }
      const group_id = newId();
      this.tables.groups[group_id] = { group_id, name, ...SYSTEM_GROUPS[name], is_system: true };
    }
  }

  /** Every group. */
  all(): GroupRecord[] {
    return Object.values(this.tables.groups);
  }

  /** The group named `name`, if any (names are unique). */
  groupByName(name: string): GroupRecord | undefined {
    return this.all().find((g) => g.name === name);
  }

  /** A group by id in either form; undefined when the id is malformed or unknown. */
  group(id: unknown): GroupRecord | undefined {
    return byId(this.tables.groups, id);
  }

  /** A group by name, else by id: how seeds and CSV rows refer to groups. */
  groupByNameOrId(ref: string): GroupRecord | undefined {
    return this.groupByName(ref) ?? this.group(ref);
  }

  /** A group an operation refers to, with the product's wording when it is unknown. */
  requireGroup(id: unknown): GroupRecord {
    return orUnknown(this.group(id), id, (given) => `Invalid Group ID (${given})`);
  }

  /** The All Users group. */
  get allUsersGroup(): GroupRecord {
    return this.groupByName(ALL_USERS_GROUP)!;
  }

  /** The Administrators group. */
  get administratorsGroup(): GroupRecord {
    return this.groupByName(ADMINISTRATORS_GROUP)!;
  }

  /**
   * Add a seeded group. A seed may pin the id of a system group, so tests can refer to it; any
   * other name already taken is refused (the caller words the error). `priority` (the seed's own,
   * else the caller's) orders the seeded groups after Administrators and before All Users.
   */
  addSeedGroup(input: GroupInput, priority: number): GroupRecord | "duplicate" {
    const existing = this.groupByName(input.name);
    if (existing?.is_system && input.group_id) {
      delete this.tables.groups[existing.group_id];
      existing.group_id = canonicalId(input.group_id)!;
      this.tables.groups[existing.group_id] = existing;
      return existing;
    }
    if (existing) return "duplicate";
    const group_id = input.group_id ? canonicalId(input.group_id)! : newId();
    const group: GroupRecord = {
      group_id,
      name: input.name,
      description: input.description ?? null,
      priority: input.priority ?? priority,
      is_system: false,
    };
    this.tables.groups[group_id] = group;
    return group;
  }

  // --- the product's group operations (1.15 answers their refusals with HTTP 200) ------------

  /**
   * create_group: a name and a priority are required; names are unique; 0 < priority < 4096 as
   * Python's `int()` reads it, and a priority it cannot read fails the call (1.15's create_group).
   */
  createGroup(input: NewGroupInput): GroupRecord {
    if (input.name === undefined || input.priority === undefined) throw new RefusedWith200("Invalid Request. Missing required parameters");
    if (this.groupByName(input.name)) throw new RefusedWith200(`Group (${input.name}) already exists`);
    const read = pythonInt(input.priority);
    if (read === undefined) throw new UnhandledException();
    if (!(read >= PRIORITY_MIN && read <= PRIORITY_MAX)) throw new RefusedWith200(`Invalid priority value (${pythonText(input.priority)})`);
    const priority = storedPriority(input.priority);
    const group_id = newId();
    const group: GroupRecord = {
      group_id,
      name: input.name,
      description: input.description ?? null,
      priority,
      is_system: false,
      // 1.15's create_group stores the metadata it is sent, null when none (its admin UI sends {}).
      group_metadata: input.group_metadata ?? null,
    };
    this.tables.groups[group_id] = group;
    return group;
  }

  /**
   * update_group: the fields sent change. 1.15 checks neither the priority nor the name here; the
   * emulator takes any priority its database would store, as 1.15 does, but keeps names unique
   * with create's wording: seeds, CSV rows and lookups find groups by name.
   */
  updateGroup(id: unknown, input: NewGroupInput): GroupRecord {
    const group = this.productGroup(id);
    if (input.name !== undefined && input.name !== group.name && this.groupByName(input.name)) throw new RefusedWith200(`Group (${input.name}) already exists`);
    // 1.15 stores any priority but null unchecked: its database fails the call on one it cannot store.
    const priority = input.priority === undefined || input.priority === null ? undefined : storedPriority(input.priority);
    if (input.name !== undefined) group.name = input.name;
    if (input.description !== undefined) group.description = input.description;
    if (priority !== undefined) group.priority = priority;
    // 1.15's update_group leaves a field it is sent as null (or not at all) alone.
    if (input.group_metadata !== undefined && input.group_metadata !== null) group.group_metadata = input.group_metadata;
    return group;
  }

  /** The group update_group names, with 1.15's wording when the id is missing, malformed or unknown. */
  productGroup(id: unknown): GroupRecord {
    if (id === undefined || id === null || id === "") throw new RefusedWith200("Invalid Request. Missing required parameters");
    const canonical = pythonUuid(id);
    if (!canonical) throw new RefusedWith200("Invalid Request. group_id must be a uuid");
    const group = this.group(canonical);
    if (!group) throw new RefusedWith200("Invalid Request. group does not exit by that id");
    return group;
  }

  /**
   * delete_group: never a system group, nor one a cast config names; one with members only with
   * `force`, which takes them out of it.
   */
  deleteGroup(id: unknown, force: boolean): void {
    const group = this.group(id);
    if (!group) throw new RefusedWith200(`Group ${String(id ?? "")} does not exist`);
    if (group.is_system) throw new RefusedWith200(`Group (${group.name}) is a protected group and cannot be deleted`);
    const castConfigs = this.dependents?.castConfigIds(group.group_id) ?? [];
    if (castConfigs.length > 0)
      throw new RefusedWith200(`Group (${group.name}) is referenced in Cast configuration (${castConfigs.join(",")}) and cannot be deleted`);
    const members = this.dependents?.memberCount(group.group_id) ?? 0;
    if (members > 0 && !force) throw new RefusedWith200(`Group contains (${members}) users and 'force' option not set to True`);
    this.dependents?.forgetGroup(group.group_id);
    delete this.tables.groups[group.group_id];
  }
}
