/**
 * `kasm.UserSet`: many Kasm users as one resource, created through Kasm's CSV import.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type ComputedOutputs, type ExactlyOneOf, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";
import type { UserSetOutputs } from "../provider/resources/user-set";
import { ID_AFTER_IMPORT } from "../catalogue/bulk-rows";

/** `additive` (default): the set only adds the listed groups. `authoritative`: it also removes the others, except All Users. */
export type UserSetGroupsMode = "additive" | "authoritative";

/**
 * One user of a {@link UserSet}. Fields left out are not managed: Kasm keeps (or, for a new user,
 * chooses) their value, and drift in them is not reported.
 */
export interface UserSetUser {
  /** The login name. Kasm trims and lowercases it; each username once in a set, in any case. */
  readonly username: pulumi.Input<string>;
  /**
   * `local` (Kasm's default), `ldap`, `oidc` or `saml`. Set by the import only: a later change is
   * not applied (a warning says so).
   */
  readonly realm?: pulumi.Input<"ldap" | "local" | "oidc" | "saml">;
  /** At most 64 characters. */
  readonly firstName?: pulumi.Input<string>;
  /** At most 64 characters. */
  readonly lastName?: pulumi.Input<string>;
  /** At most 64 characters (Kasm's `phone`). */
  readonly phoneNumber?: pulumi.Input<string>;
  /** At most 64 characters. */
  readonly organization?: pulumi.Input<string>;
  /** Make the user choose a new password at the next sign-in. Set by the import only; not readable. */
  readonly forcePasswordReset?: pulumi.Input<boolean>;
  /** Set by the import only; not readable, so drift in it cannot be seen. */
  readonly city?: pulumi.Input<string>;
  /** Set by the import only; not readable. */
  readonly state?: pulumi.Input<string>;
  /** Set by the import only; not readable. */
  readonly country?: pulumi.Input<string>;
  /** Set by the import only; not readable. */
  readonly email?: pulumi.Input<string>;
  /**
   * Group names, each once, in any order. Left out: the user's groups are not managed. `[]`: no
   * groups (in `authoritative` mode, every group but All Users is removed).
   */
  readonly groups?: pulumi.Input<pulumi.Input<string>[]>;
}

/** The arguments of a {@link UserSet}: exactly one of `users` and `csv`. */
export interface UserSetArgs extends ConnectionArgs {
  /** The users, one entry each. */
  readonly users?: pulumi.Input<pulumi.Input<UserSetUser>[]>;
  /**
   * The users in Kasm's import format: a header line, then one line per user. Columns: `username`
   * (required), `realm`, `first_name`, `last_name`, `phone_number`, `organization`,
   * `force_password_reset`, `city`, `state`, `country`, `email`, `group_1`, `group_2`, ... (group
   * names). An empty cell is not managed; with group columns, every row manages its groups.
   */
  readonly csv?: pulumi.Input<string>;
  /** How listed groups apply to existing users. Default: `additive`. */
  readonly groupsMode?: pulumi.Input<UserSetGroupsMode>;
  /** On removal or destroy, end the users' running sessions instead of failing. Default: false. */
  readonly forceDelete?: pulumi.Input<boolean>;
  /**
   * Take over users whose username exists in Kasm already (bringing their names, phone,
   * organization and groups to the declared ones) instead of failing. Default: false.
   */
  readonly adopt?: pulumi.Input<boolean>;
  /**
   * Group name -> group id, for groups that existing users must join when no user in Kasm is in
   * the group yet (the API cannot list groups; it shows ids only inside user records). Kasm's
   * admin UI shows a group's id under Access Management, Groups. New users never need it.
   */
  readonly groupIds?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/**
 * Many Kasm users as one resource: new users are created in one request (Kasm's CSV import, the
 * only call that sets email, realm, city, state, country and force_password_reset), refresh reads
 * 1,000 users per request, and a change touches only the rows that changed: added users are
 * imported together, changed names, phone and organization updated, removed users deleted, group
 * changes applied. Users deleted in the Kasm UI drop out of the set on refresh and come back on
 * the next up. An import sets no password and the set never holds one: users sign in through an
 * identity provider, or get a password from the {@link User} kind or the Kasm UI
 * (`forcePasswordReset` makes them choose one at the next sign-in).
 *
 * @example
 * ```ts
 * const team = new kasm.UserSet("engineering", {
 *   users: [
 *     { username: "alice", firstName: "Alice", email: "alice@example.com", groups: ["Engineering"] },
 *     { username: "bob", firstName: "Bob", realm: "oidc", groups: ["Engineering", "On call"] },
 *   ],
 * });
 * // Or Kasm's import file as it is:
 * const interns = new kasm.UserSet("interns", { csv: fs.readFileSync("interns.csv", "utf8") });
 * export const aliceId = team.userIds["alice"];
 * ```
 */
export class UserSet extends KasmResource<UserSetArgs, UserSetOutputs> {
  protected static override readonly kind = "UserSet";

  // Declared here too, not only through ComputedOutputs: a constructor may assign only its class's own property.
  /** Username (as Kasm stores it: lowercase) -> user id (32 hex digits), for every user of the set. */
  declare readonly userIds: pulumi.Output<Record<string, string>>;

  /** Exactly one of `users` and `csv`: giving both (or neither) fails to compile. */
  constructor(name: string, args: ExactlyOneOf<UserSetArgs, "users", "csv">, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, { computed: { userIds: true, count: true } });
    this.userIds = idsKnownAfterImport(this.userIds);
  }
}

/**
 * `ids` with each id the provider planned as {@link ID_AFTER_IMPORT} (a row a change adds) made
 * Pulumi's unknown value during a preview: `staff.userIds["ada"]` is known for a user the set
 * keeps, so a resource using it shows no change, and unknown for a user it adds, so a resource
 * using it shows as created. Outside a preview the ids are Kasm's, untouched.
 */
function idsKnownAfterImport(ids: pulumi.Output<Record<string, string>>): pulumi.Output<Record<string, string>> {
  if (!pulumi.runtime.isDryRun()) return ids;
  return ids.apply((map) => {
    if (map === undefined || map === null || !Object.values(map).includes(ID_AFTER_IMPORT)) return map;
    return Object.fromEntries(Object.entries(map).map(([username, id]) => [username, id === ID_AFTER_IMPORT ? (pulumi.unknown as unknown as string) : id]));
  });
}

/** The outputs of a {@link UserSet}: computed ({@link UserSetOutputs}) and mirroring its arguments ({@link UserSetArgs}). */
export interface UserSet extends ComputedOutputs<UserSetOutputs>, InputOutputs<UserSetArgs> {}
