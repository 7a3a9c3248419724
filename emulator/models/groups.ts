/**
 * Groups. All Users and Administrators always exist; the API creates no groups (they come from
 * the seed or the data file), but users join and leave them.
 */
import { ADMINISTRATORS_GROUP, ALL_USERS_GROUP, SYSTEM_GROUP_NAMES } from "../../catalogue";
import { byId, canonicalId, newId, orUnknown, type Table } from "./common";

/** A group as stored; `is_system` marks All Users and Administrators. */
export interface GroupRecord {
  group_id: string;
  name: string;
  description: string | null;
  priority: number;
  is_system: boolean;
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
}

/** The groups: lookups by id and name, the system groups, and the seeded ones. */
export class GroupsModel {
  constructor(private readonly tables: GroupsTables) {
    this.ensureSystemGroups();
  }

  /** All Users and Administrators always exist, whatever the seed or data file says. */
  private ensureSystemGroups(): void {
    for (const [index, name] of SYSTEM_GROUP_NAMES.entries()) {
      const existing = this.groupByName(name);
      if (existing) {
        existing.is_system = true;
        continue;
      }
      const group_id = newId();
      this.tables.groups[group_id] = { group_id, name, description: null, priority: index + 1, is_system: true };
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
   * other name already taken is refused (the caller words the error). `priority` orders the
   * seeded groups after the system ones.
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
    const group: GroupRecord = { group_id, name: input.name, description: input.description ?? null, priority, is_system: false };
    this.tables.groups[group_id] = group;
    return group;
  }
}
