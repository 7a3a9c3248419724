/**
 * `UserSet`'s vocabulary: the fields of one user of the set and what Kasm can do with each, the
 * inputs schema and outputs, and the `Row` every other part of the kind works on.
 */
import { z } from "zod";
import { KasmId } from "../kit";

// --- types ---------------------------------------------------------------------------------------

/** The realms Kasm's import accepts. */
export const REALMS = ["ldap", "local", "oidc", "saml"] as const;

/** The fields of one user of the set besides `username` and `groups`, in Kasm's column order. */
export const USER_FIELDS = [
  "realm",
  "firstName",
  "lastName",
  "phoneNumber",
  "organization",
  "forcePasswordReset",
  "city",
  "state",
  "country",
  "email",
] as const;
/** A field of one user of the set besides `username` and `groups`. */
export type UserField = (typeof USER_FIELDS)[number];

/** Fields `update_user` can change, with its name for each. */
export const UPDATABLE: Readonly<Partial<Record<UserField, "first_name" | "last_name" | "phone" | "organization">>> = {
  firstName: "first_name",
  lastName: "last_name",
  phoneNumber: "phone",
  organization: "organization",
};

/** Fields only the import sets: `update_user` has no field for them. */
export const IMPORT_ONLY_FIELDS: readonly UserField[] = ["realm", "email", "city", "state", "country", "forcePasswordReset"];

/** Fields of Kasm's user record (get_users), by the set's name: the ones whose drift refresh can see. */
export const READABLE: Readonly<Partial<Record<UserField, "realm" | "first_name" | "last_name" | "phone" | "organization">>> = {
  realm: "realm",
  ...UPDATABLE,
};

/** Kasm cuts these to 64 characters; longer values would show as drift forever. */
export const CUT_AT_64: readonly UserField[] = ["firstName", "lastName", "phoneNumber", "organization"];

/** The inputs of a UserSet, as far as zod checks them; the rows are checked one by one in `check`. */
export const UserSetInputs = z.strictObject({
  csv: z.string().optional(),
  users: z.array(z.unknown()).optional(),
  groupsMode: z.enum(["additive", "authoritative"]).optional(),
  /** Destroy users even with running sessions, ending them. */
  forceDelete: z.boolean().optional(),
  /** Take over users whose username exists already instead of failing. */
  adopt: z.boolean().optional(),
  /** Group name -> id, for groups no user shows yet. */
  groupIds: z.record(z.string().min(1, "a group name must not be empty"), KasmId).optional(),
});
/** The inputs of a UserSet (the rows themselves are checked by `check`). */
export type UserSetInputs = z.infer<typeof UserSetInputs>;

/** What the provider adds to the inputs. */
export interface UserSetOutputs {
  /** Username (as Kasm stores it: lowercase) -> user id. */
  readonly userIds: Record<string, string>;
  readonly count: number;
}

/** Inputs that are not the users themselves. */
export const OTHER_INPUTS = ["groupsMode", "forceDelete", "adopt", "groupIds"] as const;

/** One user of the set, whichever way it was given. */
export interface Row {
  /** As written, trimmed. */
  readonly username: string;
  /** As Kasm stores it: lowercase. */
  readonly key: string;
  /** The declared fields (a CSV's empty cells are not declared). Realm is lowercase. */
  readonly fields: Partial<Record<UserField, string | boolean>>;
  /** The declared group names, each once; undefined when the row leaves groups alone. */
  readonly groups?: readonly string[];
  /** Where the row is, for messages: `users[3]` or `csv row 4`. */
  readonly label: string;
}

/** How a set's rows were given. */
export type Form = "users" | "csv";

/**
 * A numbered group column of Kasm's user import, `group_1`, `group_2`, ...; the number (from 1)
 * is captured, to name the `groups` entry a problem of that column is about.
 */
export const GROUP_COLUMN = /^group_([1-9]\d*)$/;
