/**
 * `UserAttributes`: the attributes of one Kasm user (SSH public key, default image, tips dialogue,
 * control panel, automatic session launch).
 *
 * API: get_attributes, update_user_attributes. Every user has exactly one attributes record,
 * which Kasm creates with the user and deletes with it; the API can neither create nor delete
 * one. So creating this resource updates the declared attributes of the existing record (those
 * that differ from Kasm's: when none does, nothing is written), and destroying it only forgets
 * them: Kasm keeps the values they have then, nothing is restored.
 * The id is the user's id. `userId` replaces (it names another user's record); every attribute
 * updates in place. Refresh drops the resource when the user is gone. Declare at most one
 * UserAttributes per user: two would overwrite each other.
 *
 * `ssh_public_key` is a field of the record but not of the spec's update body; Kasm installations
 * accept it (the emulator does too). `default_image` must name an existing image.
 */
import { z } from "zod";
import { userAttributesShown, type UserAttributes as KasmUserAttributes, type UserAttributesUpdate } from "../api/schemas/users";
import { canonicalId } from "../../permissions/planned-calls";
import { changedFields, declared, keepSpelling, same, type FieldRule, declareFields, USER_KEY } from "./framework/fields";
import { GONE, orMissing, unlessGone, defineKind, fieldNames, type KindOutputs } from "./framework/define-kind";
import { KasmId } from "./framework/check-wording";
import { missingUserError } from "./framework/errors";
import type { KindContext, RefreshedInputs, KindTexts } from "./framework/types";
import { userAttributesCalls } from "./user-attributes.calls";

// --- types ---------------------------------------------------------------------------------------

/** One line of an OpenSSH public key: `<type> <base64> [comment]`. */
const SSH_PUBLIC_KEY =
  /^(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp(?:256|384|521)|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) [A-Za-z0-9+/]+={0,3}(?: [^\r\n]*)?$/;

/** An SSH public key, or `""` for none. Surrounding white space (a `.pub` file's newline) is ignored. */
const SshPublicKey = z.string().superRefine((value, ctx) => {
  const key = value.trim();
  // Never echo the value: a private key pasted by mistake must not reach a log.
  if (/PRIVATE KEY/.test(key)) ctx.addIssue({ code: "custom", message: "this is a private key; give the public key (the contents of the .pub file)" });
  else if (key !== "" && !SSH_PUBLIC_KEY.test(key))
    ctx.addIssue({
      code: "custom",
      message: "must be one OpenSSH public key line such as 'ssh-ed25519 AAAA... comment', or '' for none",
    });
});

/** Text compared without surrounding white space, `null` and `""` alike. */
const sameText = (a: unknown, b: unknown) => String(a ?? "").trim() === String(b ?? "").trim();

/** Each input of a UserAttributes, declared once: its type, role, rule, doc and how it is sent. Every attribute updates in place. */
const USER_ATTRIBUTES_FIELDS = declareFields({
  // The user whose record it is: another user is another record. It travels beside the attributes.
  userId: {
    ...USER_KEY,
    doc: "The user whose attributes these are (32 hex digits or a hyphenated UUID). Changing it " + "replaces the resource.",
  },
  sshPublicKey: {
    type: SshPublicKey.optional(),
    role: "sent",
    equal: sameText,
    send: (key: string) => key.trim(),
    doc:
      "The user's SSH public key: one OpenSSH line such as `ssh-ed25519 AAAA... comment` " +
      '(surrounding white space, such as a `.pub` file\'s newline, is ignored), or `""` for none. A ' +
      "private key is refused.",
  },
  defaultImage: {
    type: z.union([KasmId, z.literal("")], { error: "must be an image id (32 hexadecimal characters or a hyphenated UUID), or '' for none" }).optional(),
    role: "sent",
    // canonicalId(null) and canonicalId("") are both "": no image.
    equal: same.id,
    // "" is no image, which Kasm keeps as null.
    send: (imageId: string) => (imageId === "" ? null : canonicalId(imageId)),
    doc: 'The id of the image launched by default (an existing image; hex or hyphenated), or `""` for none.',
  },
  showTips: { type: z.boolean().optional(), role: "sent", doc: "Show the tips dialogue when a session starts." },
  toggleControlPanel: { type: z.boolean().optional(), role: "sent", doc: "Show the control panel in sessions." },
  autoLoginWs: { type: z.boolean().optional(), role: "sent", doc: "Launch the default image automatically at login." },
});

/** The inputs of a UserAttributes. */
export const UserAttributesInputs = USER_ATTRIBUTES_FIELDS.schema;
export type UserAttributesInputs = z.infer<typeof UserAttributesInputs>;

/** What the provider adds to the inputs: each output, its type and its doc (the SDK class's TSDoc and the package schema's description). */
export const UserAttributesOutputs = z.strictObject({
  userAttributesId: z
    .string()
    .nullable()
    .describe("The id of the user's attributes record (the resource's id is the user's id); null when Kasm's answer has none."),
});
export type UserAttributesOutputs = z.infer<typeof UserAttributesOutputs>;

/** The rules of every input (the key and the attributes): how `read` tells the declared spelling from Kasm's. */
const INPUT_FIELDS: Readonly<Record<keyof UserAttributesInputs, FieldRule>> = { ...USER_ATTRIBUTES_FIELDS.keyFields, ...USER_ATTRIBUTES_FIELDS.apiFields };

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the UserAttributes kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "The attributes of one Kasm user. Kasm keeps exactly one attributes record per user, created and " +
    "deleted with the user: creating this resource sets the declared attributes of that record, and " +
    "destroying it only forgets them (Kasm keeps their values; nothing is restored). Declare at most " +
    "one per user. Every attribute updates in place; refresh drops the resource when the user is " +
    "gone.",
  arguments: "The arguments of a UserAttributes. Attributes left out are not managed: Kasm keeps whatever " + "they are.",
  example: [
    'const attrs = new kasm.UserAttributes("alice", {',
    "  userId: alice.userId,",
    "  defaultImage: chromeImageId,",
    '  sshPublicKey: fs.readFileSync("alice.pub", "utf8"),',
    "  showTips: false,",
    "});",
  ].join("\n"),
  limits: "no delete: destroy forgets the attributes",
};

// --- helpers -------------------------------------------------------------------------------------

/** An attribute's input name. */
type AttributeKey = keyof typeof USER_ATTRIBUTES_FIELDS.apiFields;

/** The `target_user_attributes` body for the declared attributes among `keys`. */
function attributesBody(userId: string, inputs: UserAttributesInputs, keys: readonly AttributeKey[]): UserAttributesUpdate {
  return { ...USER_ATTRIBUTES_FIELDS.body<Omit<UserAttributesUpdate, "user_id">>(inputs, keys), user_id: userId };
}

/** The attributes as inputs, keeping the declared spelling of values Kasm stores in another form. */
function currentInputs(declaredInputs: RefreshedInputs<UserAttributesInputs>, attributes: KasmUserAttributes): RefreshedInputs<UserAttributesInputs> {
  const current: RefreshedInputs<UserAttributesInputs> = {
    userId: keepSpelling(declaredInputs.userId, attributes.user_id) as string | null,
    // Kasm's record as inputs (the client's mapping, which kasm-import writes too).
    ...userAttributesShown(attributes),
  };
  const inputs: Record<string, unknown> = {};
  for (const key of fieldNames(INPUT_FIELDS)) {
    if (declaredInputs[key] === undefined) continue;
    inputs[key] = (INPUT_FIELDS[key].equal ?? same.value)(declaredInputs[key], current[key]) ? declaredInputs[key] : current[key];
  }
  // Each value is the declared one or Kasm's, field by field, as `current` types them.
  return inputs as RefreshedInputs<UserAttributesInputs>;
}

function outputs(
  inputs: RefreshedInputs<UserAttributesInputs>,
  userAttributesId: string | null | undefined,
): KindOutputs<UserAttributesInputs, UserAttributesOutputs> {
  return { ...declared(inputs, fieldNames(INPUT_FIELDS)), userAttributesId: userAttributesId ?? null };
}

/** The attributes of a user, or a clear error when there is no such user. */
async function attributesOf(context: KindContext, userId: string): Promise<KasmUserAttributes> {
  return orMissing(
    () => context.client().users.getAttributes({ user_id: userId }),
    (cause) => missingUserError(context, "UserAttributes", userId, "; the attributes record exists only with its user", cause),
  );
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of UserAttributes; every update runs (it has no provider flags). */
export const userAttributesProvider = defineKind<UserAttributesInputs, UserAttributesOutputs>({
  fields: USER_ATTRIBUTES_FIELDS,
  outputs: UserAttributesOutputs,
  docs: DOCS,
  sendsNothingWhen: "never",
  calls: userAttributesCalls,

  async create(inputs, context) {
    const userId = canonicalId(inputs.userId);
    // Read first: it proves the user exists, gives the record's id, and shows the record in the
    // installation's vocabulary (a mismatch fails here, before anything is written). Then only the
    // declared attributes that differ from Kasm's, by each field's rule, are sent: none, no request.
    const attributes = await attributesOf(context, userId);
    const differing = changedFields(currentInputs(inputs, attributes), inputs, USER_ATTRIBUTES_FIELDS.apiFields) as AttributeKey[];
    if (differing.length > 0) await context.client().users.updateUserAttributes(attributesBody(userId, inputs, differing));
    return { id: userId, outs: outputs(inputs, attributes.user_attributes_id) };
  },

  async read(id, props, context) {
    const attributes = await unlessGone(() => context.client().users.getAttributes({ user_id: canonicalId(id) }));
    if (!attributes) return GONE;
    const inputs = currentInputs(props, attributes);
    return { id: canonicalId(attributes.user_id), props: outputs(inputs, attributes.user_attributes_id), inputs };
  },

  async update(id, olds, news, changedFields, context) {
    const changed = changedFields.filter((key): key is AttributeKey => key in USER_ATTRIBUTES_FIELDS.apiFields);
    // update_user_attributes answers `{}`, which cannot show that Kasm ignored `auto_login_ws`
    // (a released Kasm names it `auto_login_kasm`): read the record first, whose names show the
    // vocabulary the installation speaks, so that a mismatch fails before anything is written.
    if (changed.includes("autoLoginWs")) await attributesOf(context, canonicalId(id));
    if (changed.length > 0) await context.client().users.updateUserAttributes(attributesBody(canonicalId(id), news, changed));
    return { outs: outputs(news, olds.userAttributesId) };
  },

  async delete() {
    // The API has no delete: the record lives as long as its user. Destroying only forgets it.
  },
});
