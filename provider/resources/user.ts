/**
 * `User`: a Kasm user account.
 *
 * API: create_user, get_user, update_user, delete_user. Every field updates in place, the
 * username included. `password` is write-only (Kasm never returns it): a change updates it, and
 * drift in it cannot be seen. Adoption by username (`adopt: true`). Destroying a user who has
 * running sessions fails unless `forceDelete` is set, which ends the sessions too.
 */
import { z } from "zod";
import type { NewUser, User as KasmUser, UserUpdate } from "../api/schemas/users";
import type { KasmClient } from "../api/client";
import { KasmForceRequiredError } from "../api/errors/answers";
import { userShown } from "../api/schemas/users";
import { ADOPT, declared, inputNames, same, declareFields } from "./framework/fields";
import { isNotFound, defineKind, type KindOutputs } from "./framework/define-kind";
import { KasmDeleteBlockedError } from "./framework/errors";
import type { KindTexts, RefreshedInputs } from "./framework/types";
import { userCalls } from "./user.calls";

// --- types ---------------------------------------------------------------------------------------

/** Kasm cuts these to 64 characters; longer values would show as drift forever, so check refuses them. */
const Text64 = z.string().max(64, "Kasm keeps at most 64 characters");

/** Each input of a User, declared once: its type, role, rule, doc and how it is sent. */
const USER_FIELDS = declareFields({
  username: {
    type: z
      .string()
      .trim()
      .min(1, "username is required")
      .refine((u) => !/\s/.test(u), "a username cannot contain white space"),
    role: "sent",
    equal: same.username,
    // As Kasm stores it: the natural key.
    send: (username: string) => username.trim().toLowerCase(),
    doc: "The login name. Kasm trims and lowercases it; changing it renames the user in place.",
  },
  password: {
    type: z.string().min(1, "password must not be empty").optional(),
    secret: true,
    role: "sent",
    doc: "The password; always stored as a secret. Write-only: Kasm never returns it, so drift in it " + "cannot be seen.",
  },
  firstName: { type: Text64.optional(), role: "sent", doc: "At most 64 characters (Kasm cuts longer values)." },
  lastName: { type: Text64.optional(), role: "sent", doc: "At most 64 characters." },
  phone: { type: Text64.optional(), role: "sent", doc: "At most 64 characters." },
  organization: { type: Text64.optional(), role: "sent", doc: "At most 64 characters." },
  locked: { type: z.boolean().optional(), role: "sent", doc: "Lock the account." },
  disabled: { type: z.boolean().optional(), role: "sent", doc: "Disable the account." },
  forceDelete: { type: z.boolean().optional(), role: "provider", doc: "On destroy, end the user's running sessions instead of failing. Default: false." },
  adopt: {
    ...ADOPT,
    doc: "Take over an existing user with this username (and bring it to the declared state) instead of " + "failing. Default: false.",
  },
});

/** The inputs of a User. */
export const UserInputs = USER_FIELDS.schema;
export type UserInputs = z.infer<typeof UserInputs>;

/** What the provider adds to the inputs: each output, its type and its doc (the SDK class's TSDoc and the package schema's description). */
export const UserOutputs = z.strictObject({
  userId: z.string().describe("The user's id (32 hex digits)."),
  realm: z.string().nullable().describe("Kasm's realm of the user: `local`, `ldap`, `oidc` or `saml`; null when the record has none."),
  created: z.string().nullable().describe("When Kasm created the user; null when the record does not say."),
});
export type UserOutputs = z.infer<typeof UserOutputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the User kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description: "A Kasm user. Every field updates in place.",
  arguments: "The arguments of a User. Inputs left out are not managed: Kasm keeps whatever they are.",
  example: ['const alice = new kasm.User("alice", { username: "alice", password: cfg.requireSecret("alicePassword"), firstName: "Alice" });'].join("\n"),
  limits: "password is write-only: drift in it cannot be seen; a user with sessions is only deleted with " + "`forceDelete`",
};

// --- helpers -------------------------------------------------------------------------------------

/**
 * Delete a user (`delete_user`); one that is gone already counts as deleted. Kasm refuses a user
 * with running sessions unless `force` is set: that refusal becomes a {@link KasmDeleteBlockedError}
 * naming the way out. UserSet deletes its users the same way.
 */
export async function deleteKasmUser(client: KasmClient, username: string, userId: string, force: boolean): Promise<void> {
  try {
    await client.users.deleteUser({ user_id: userId, force });
  } catch (error) {
    if (isNotFound(error)) return;
    if (error instanceof KasmForceRequiredError)
      throw new KasmDeleteBlockedError(
        `User '${username}' still has running sessions, and Kasm refuses to delete a user with sessions. ` +
          `Set \`forceDelete: true\` to end the sessions and delete the user, or end the sessions first.`,
        error,
      );
    throw error;
  }
}

/** The `target_user` body for the declared fields, with the username as Kasm stores it. */
function targetUser(inputs: Partial<UserInputs>): Partial<NewUser> {
  return USER_FIELDS.body<Partial<NewUser>>(inputs);
}

/** The username as Kasm keeps it, trimmed and in lower case: the natural key. */
function username(inputs: UserInputs): string {
  return String(targetUser(inputs).username);
}

/** The user's fields as inputs: what `read` reports and adoption compares. The password is never among them. */
function currentInputs(props: RefreshedInputs<UserInputs>, user: KasmUser): RefreshedInputs<UserInputs> {
  // Kasm's record as inputs (the client's mapping, which kasm-import writes too).
  const { username, ...shown } = userShown(user);
  return {
    // Keep the declared spelling when it names the same user, so refresh shows no change.
    username: same.username(props.username, username) ? props.username : username,
    ...shown,
  };
}

function outputs(inputs: RefreshedInputs<UserInputs>, user: KasmUser): KindOutputs<UserInputs, UserOutputs> {
  return { ...declared(inputs, inputNames(UserInputs)), userId: user.user_id, realm: user.realm ?? null, created: user.created ?? null };
}

// --- provider ------------------------------------------------------------------------------------

/**
 * The provider of User. An update sends nothing when no declared API field changed (only
 * `forceDelete` or `adopt` did, or an input stopped being declared): Kasm has nothing to change,
 * and the computed outputs are those of the state.
 */
export const userProvider = defineKind<UserInputs, UserOutputs, KasmUser>({
  fields: USER_FIELDS,
  outputs: UserOutputs,
  docs: DOCS,
  sendsNothingWhen: "no-api-field-changed",
  // From the refresh's get_users pages when many users are read together (see UserReads). The
  // password and the provider flags cannot be read back: they stay as declared.
  record: { id: (user) => user.user_id, fetch: (id, _state, context) => context.client().userReads.read(id), asInputs: currentInputs, outputs },
  adoption: {
    kind: "User",
    key: (inputs) => `'${username(inputs)}'`,
    // Kasm never shows a password: whether the declared one is set cannot be known, so an adopted
    // user with a declared password is always updated (isAsDeclared finds none to compare), the one
    // moment the program can make it so (later updates send it only when the program changes it).
    unreadable: ["password"],
    find: (inputs, context) => context.client().users.findUserByUsername(username(inputs)),
    // The checks of one deployment share one listing of usernames: N new users cost N creates and a page or so.
    findBeforeCreate: (inputs, context) => context.client().usernames.find(username(inputs)),
    // Looked up even without adopt (see Adoption.findFirst): after a server error the client's
    // recovery would take a user made outside Pulumi for its own create.
    findFirst: (existing) => `user ${existing.user_id}`,
  },
  calls: userCalls,

  async create(inputs, context, createOrAdopt) {
    const client = context.client();
    const body = targetUser(inputs);
    const user = await createOrAdopt({
      update: (existing) => client.users.updateUser({ ...body, user_id: existing.user_id }),
      create: () => client.users.createUser({ ...body, username: username(inputs) }),
    });
    return { id: user.user_id, outs: outputs(inputs, user) };
  },

  async update(id, _olds, news, changedFields, context) {
    const body = targetUser(declared(news, changedFields));
    // Kasm releases before 1.19 refuse an update without the username: always send it.
    const user = await context.client().users.updateUser({ username: news.username.trim().toLowerCase(), ...body, user_id: id } satisfies UserUpdate);
    return { outs: outputs(news, user) };
  },

  async delete(id, props, context) {
    await deleteKasmUser(context.client(), String(props.username), id, props.forceDelete === true);
  },
});
