/**
 * `UserSet`'s vocabulary: the fields of one user of the set and what Kasm can do with each, the
 * inputs schema and outputs, and the `Row` every other part of the kind works on.
 */
import { z } from "zod";
import { csvBoolean } from "../../../permissions/bulk-rows";
import { ADOPT, declareFields } from "../framework/fields";
import { KasmId } from "../framework/check-wording";

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

/** What a group name must be. */
const GROUP_NAME_MESSAGE = "must be a group name (not empty)";

/** Text, in `check`'s words. */
const text = () => z.string({ error: "must be a string" });
/** Text Kasm cuts to 64 characters: longer, it would show as drift forever. */
const cutAt64 = () => text().refine((value) => value.trim().length <= 64, "Kasm keeps at most 64 characters");

/**
 * One user of the set, as a runtime schema in `check`'s words. It reads a `users` entry and a
 * parsed CSV row alike (`fromCsv`: the cells as text, `forcePasswordReset` as the cell, group
 * columns gathered into `groups`). Each message names no field: `check` adds `users[3].realm: `
 * or `csv row 4 (line 5), column realm: ` itself. A username once per set spans rows, and is
 * check.ts's.
 */
export function userRowSchema(fromCsv: boolean) {
  return z.strictObject({
    /** The login name: Kasm trims and lowercases it. */
    username: z
      .string({ error: (issue) => (issue.input === undefined ? "username is required" : "must be a string") })
      .refine((value) => value.trim() !== "", { message: "username is required (it is empty)", abort: true })
      .refine((value) => !/\s/.test(value.trim()), "a username cannot contain white space"),
    /** One of the realms of Kasm's import, in any case; empty is Kasm's default. */
    realm: text()
      .refine((value) => value.trim() === "" || (REALMS as readonly string[]).includes(value.trim().toLowerCase()), {
        error: (issue) => `'${String(issue.input)}' is not one of ${REALMS.join(", ")}`,
      })
      .optional(),
    firstName: cutAt64().optional(),
    lastName: cutAt64().optional(),
    phoneNumber: cutAt64().optional(),
    organization: cutAt64().optional(),
    forcePasswordReset: (fromCsv
      ? text().refine((cell) => typeof csvBoolean(cell) === "boolean", {
          error: (issue) => `'${String(issue.input).trim()}' is not a boolean: write true or false (or yes, no, 1, 0)`,
        })
      : z.boolean({ error: "must be true or false" })
    ).optional(),
    city: text().optional(),
    state: text().optional(),
    country: text().optional(),
    email: text().optional(),
    /** Each group once: one membership, one entry. */
    groups: z
      .array(
        z.string({ error: GROUP_NAME_MESSAGE }).refine((group) => group.trim() !== "", GROUP_NAME_MESSAGE),
        { error: "must be a list of group names" },
      )
      .superRefine(
        (groups, ctx) => {
          const seen = new Set<string>();
          groups.forEach((group, index) => {
            if (typeof group !== "string" || group.trim() === "") return;
            if (seen.has(group.trim())) ctx.addIssue({ code: "custom", path: [index], message: `lists group '${group.trim()}' twice; list each group once` });
            seen.add(group.trim());
          });
          // A repeated name is reported beside any other entry's problem.
        },
        { when: (payload) => Array.isArray(payload.value) },
      )
      .optional(),
  });
}

/** One user of the set, as a program lists it in `users`. */
export type UserRow = z.infer<ReturnType<typeof userRowSchema>>;

/**
 * Each input of a UserSet, declared once: its type, role, rule and doc. The rows (`csv` or `users`)
 * are what Kasm holds, sent as the rows of its CSV import and the updates of the users, never as a
 * body of their own; the others only steer the provider.
 */
export const USER_SET_FIELDS = declareFields({
  csv: {
    type: z.string().optional(),
    role: "sent",
    wire: false,
    doc:
      "The users in Kasm's import format: a header line, then one line per user. Columns: `username` " +
      "(required), `realm`, `first_name`, `last_name`, `phone_number`, `organization`, " +
      "`force_password_reset`, `city`, `state`, `country`, `email`, `group_1`, `group_2`, ... (group " +
      "names). An empty cell is not managed; with group columns, every row manages its groups.",
  },
  users: {
    type: z.array(userRowSchema(false)).optional(),
    role: "sent",
    wire: false,
    doc: "The users, one entry each.",
    objects: {
      name: "UserSetUser",
      description:
        "One user of a UserSet. Fields left out are not managed: Kasm keeps (or, for a new user, " + "chooses) their value, and drift in them is not reported.",
      properties: {
        username: "The login name. Kasm trims and lowercases it; each username once in a set, in any case.",
        realm: "`local` (Kasm's default), `ldap`, `oidc` or `saml`. Set by the import only: a later " + "change is not applied (a warning says so).",
        firstName: "At most 64 characters.",
        lastName: "At most 64 characters.",
        phoneNumber: "At most 64 characters (Kasm's `phone`).",
        organization: "At most 64 characters.",
        forcePasswordReset: "Make the user choose a new password at the next sign-in. Set by the import only; not readable.",
        city: "Set by the import only; not readable, so drift in it cannot be seen.",
        state: "Set by the import only; not readable.",
        country: "Set by the import only; not readable.",
        email: "Set by the import only; not readable.",
        groups:
          "Group names, each once, in any order. Left out: the user's groups are not managed. `[]`: " +
          "no groups (in `authoritative` mode, every group but All Users is removed).",
      },
    },
  },
  groupsMode: {
    type: z.enum(["additive", "authoritative"]).optional(),
    role: "provider",
    doc: "How listed groups apply to existing users. Default: `additive`.",
  },
  forceDelete: {
    type: z.boolean().optional(),
    role: "provider",
    doc: "On removal or destroy, end the users' running sessions instead of failing. Default: false.",
  },
  adopt: {
    ...ADOPT,
    doc:
      "Take over users whose username exists in Kasm already (bringing their names, phone, " +
      "organization and groups to the declared ones) instead of failing. Default: false.",
  },
  // Group name -> id, for groups no user shows yet.
  groupIds: {
    type: z.record(z.string().min(1, "a group name must not be empty"), KasmId).optional(),
    role: "provider",
    refersTo: "Group",
    doc:
      "Group name -> group id, for groups that existing users must join when no user in Kasm is in " +
      "the group yet (the API cannot list groups; it shows ids only inside user records). Kasm's " +
      "admin UI shows a group's id under Access Management, Groups. New users never need it.",
  },
});

/** The inputs of a UserSet. `check` applies the row schema itself, to name each problem by row. */
export const UserSetInputs = USER_SET_FIELDS.schema;
/** The inputs of a UserSet. */
export type UserSetInputs = z.infer<typeof UserSetInputs>;

/** What the provider adds to the inputs: the SDK class's computed outputs, which show these docs. */
export const UserSetOutputs = z.strictObject({
  userIds: z.record(z.string(), z.string()).describe("Username (as Kasm stores it: lowercase) -> user id (32 hex digits), for every user of the set."),
  count: z.number().int().describe("How many users the set holds."),
});
export type UserSetOutputs = z.infer<typeof UserSetOutputs>;

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
