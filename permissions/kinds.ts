/**
 * The kinds of Kasm resource, their type tokens (what policy packs match resources by) and the
 * steps of a resource's life.
 */

// --- kinds and steps -------------------------------------------------------------------------

/** Every kind of Kasm resource, by the name of its SDK class (its type tokens: `pulumi-nodejs:dynamic/kasm:<Kind>` and `kasm:index:<Kind>`). */
export const KASM_KINDS = [
  "User",
  "UserSet",
  "UserAttributes",
  "Group",
  "GroupMembership",
  "UserGroups",
  "UserServerAssignment",
  "StagingConfig",
  "CastConfig",
  "ServerDrain",
  "LicenseActivation",
  "ServerImport",
  "EgressProvider",
  "EgressGateway",
  "EgressProviderMapping",
  "EgressCredential",
  "Workspace",
  "GroupWorkspace",
  "WorkspaceRegistry",
] as const;

/** A kind of Kasm resource, such as `User`. */
export type KasmKind = (typeof KASM_KINDS)[number];

/** Type guard: is `name` a kind of Kasm resource? */
export function isKasmKind(name: unknown): name is KasmKind {
  return typeof name === "string" && (KASM_KINDS as readonly string[]).includes(name);
}

/**
 * The output of each kind that holds its object's Kasm id, which is also the resource's id: what a
 * program refers to the object by (`group.groupId`, `workspace.imageId`). A table because the name
 * does not follow from the kind's (a Workspace's is `imageId`, its object being an image) and the
 * kinds' `Outputs` are TypeScript types that leave nothing at run time; it sits with the kinds so
 * that what writes programs (`kasm-import`) can read it without the providers, and
 * `provider/native/outputs.ts` holds it to the kinds' outputs by the compiler. Kinds whose object
 * has no id of its own (a membership, a drain, a set of users) are not listed.
 */
export const KIND_ID_OUTPUTS = {
  User: "userId",
  Group: "groupId",
  StagingConfig: "stagingConfigId",
  CastConfig: "castConfigId",
  EgressProvider: "egressProviderId",
  EgressGateway: "egressGatewayId",
  EgressProviderMapping: "egressProviderMappingId",
  EgressCredential: "egressCredentialId",
  Workspace: "imageId",
  WorkspaceRegistry: "registryId",
} as const satisfies Partial<Record<KasmKind, string>>;

/** The output that holds an object of `kind`'s Kasm id (see {@link KIND_ID_OUTPUTS}), or undefined when it has none. */
export function idOutputOf(kind: KasmKind): string | undefined {
  return (KIND_ID_OUTPUTS as Partial<Record<KasmKind, string>>)[kind];
}

/**
 * The two forms a Kasm resource takes: `dynamic`, a class of the SDK served by Pulumi's
 * dynamic-provider host (`pulumi-nodejs:dynamic/kasm:User`), and `native`, a resource of the
 * native provider plugin `pulumi-resource-kasm` (`kasm:index:User`). Both forms of a kind have the
 * same inputs, except the dynamic one's `connection`, and the policy packs judge them alike.
 */
export type KasmResourceForm = "dynamic" | "native";

/** What each form's type tokens start with, the kind's name following. */
const TYPE_TOKEN_PREFIXES: Readonly<Record<KasmResourceForm, string>> = {
  dynamic: "pulumi-nodejs:dynamic/kasm:",
  native: "kasm:index:",
};

/** The native provider's package name: the first part of its type tokens and of its plugin's name. */
export const NATIVE_PACKAGE = "kasm";

/** The type token of the native provider's provider resources (an explicit provider: one installation). */
export const NATIVE_PROVIDER_TYPE = `pulumi:providers:${NATIVE_PACKAGE}`;

/**
 * The type token of a kind in one of its forms (the SDK's dynamic one unless told): what
 * policies match resources by.
 */
export function kasmTypeToken(kind: KasmKind, form: KasmResourceForm = "dynamic"): string {
  return `${TYPE_TOKEN_PREFIXES[form]}${kind}`;
}

/**
 * The module name of a kind, as its files are named: `GroupWorkspace` -> `group-workspace`
 * (`provider/resources/group-workspace.ts`, the SDK's `sdk/kinds/group-workspace.ts`, and the
 * dynamic provider's module `pulumi-kasm/dynamic/group-workspace`).
 */
export function kindModuleName(kind: string): string {
  return kind.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
}

/**
 * The native provider's token of a name in its package (`kasm:index:User`): a kind's type token,
 * or the token of an object type of its schema.
 */
export function nativeToken(name: string): string {
  return `${TYPE_TOKEN_PREFIXES.native}${name}`;
}

/** The kind and form of a type token, or undefined when it is not a Kasm resource's. */
export function kindAndFormOfTypeToken(type: unknown): { readonly kind: KasmKind; readonly form: KasmResourceForm } | undefined {
  if (typeof type !== "string") return undefined;
  for (const form of Object.keys(TYPE_TOKEN_PREFIXES) as KasmResourceForm[]) {
    const prefix = TYPE_TOKEN_PREFIXES[form];
    const kind = type.startsWith(prefix) ? type.slice(prefix.length) : undefined;
    if (isKasmKind(kind)) return { kind, form };
  }
  return undefined;
}

/**
 * The kind of a type token of either form (`pulumi-nodejs:dynamic/kasm:User` and `kasm:index:User`
 * are both `User`), or of `form` only when given; undefined when it is not a Kasm resource's.
 */
export function kindOfTypeToken(type: unknown, form?: KasmResourceForm): KasmKind | undefined {
  const found = kindAndFormOfTypeToken(type);
  return found && (form === undefined || found.form === form) ? found.kind : undefined;
}

/** The steps of a resource's life that call Kasm. */
export const LIFECYCLE_STEPS = ["create", "read", "update", "delete"] as const;

/** A step of a resource's life: `create`, `read` (refresh), `update` (in place) or `delete`. */
export type LifecycleStep = (typeof LIFECYCLE_STEPS)[number];

/** Kinds whose provider changes an image's compute settings (and so may need Images Modify Resources, special permission 3). */
export const COMPUTE_SETTINGS_KINDS: readonly KasmKind[] = Object.freeze(["Workspace"]);

/**
 * A Workspace's compute-related inputs: the spec's special permission 3 puts a change of any of
 * them behind Images Modify Resources (with Images Modify). The native provider's preview names
 * those a change sets (see {@link PREVIEW_NOTES}) and the permission row reads them; the provider holds this
 * list to its inputs with `satisfies`, so a renamed input fails to compile there.
 */
export const WORKSPACE_RESOURCE_PROPERTIES = [
  "cores",
  "memory",
  "gpuCount",
  "requireGpu",
  "cpuAllocationMethod",
  "uncompressedSizeMb",
  "registry",
  "registryUsername",
  "registryPassword",
  "volumeMappings",
  "runConfig",
  "execConfig",
] as const;

/**
 * The image settings 1.15.0's update_image treats as compute-related, in the documentation's
 * vocabulary (`ctr_*` for the product's `docker_*`): the list its compiled code checks one by one
 * for a key without both Images Modify and Images Modify Resources. It is the documentation's list
 * of special permission 3 with `require_gpu` and `persistent_profile_path` added.
 */
export const IMAGE_COMPUTE_SETTINGS = [
  "require_gpu",
  "gpu_count",
  "memory",
  "cores",
  "cpu_allocation_method",
  "volume_mappings",
  "run_config",
  "persistent_profile_path",
  "uncompressed_size_mb",
  "ctr_registry",
  "ctr_token",
  "ctr_user",
  "hash",
  "exec_config",
] as const;

// --- what a preview tells the policies -------------------------------------------------------------

/**
 * The property the native provider's preview of a Workspace update adds to the planned outputs:
 * the compute-related inputs ({@link WORKSPACE_RESOURCE_PROPERTIES}) whose declared value
 * differs from the state's, `[]` when none does, the unknown placeholder when that depends on a
 * value not known during preview. Absent everywhere else: on a create (no state to compare with),
 * in the state (the update itself returns Kasm's record), and in the dynamic form.
 *
 * Why it exists: a policy sees a resource's new properties only, never the old ones, so it cannot
 * tell whether an update changes memory (Images Modify Resources) or a description (Images
 * Modify alone). Pulumi shows a stack policy the planned outputs, and the preview of an update is
 * the one step that sees the state and the program together: it writes the answer there, where
 * no preview, diff or state a user reads shows it (the CLI prints no planned outputs of an update).
 * Pulumi's dynamic-provider host takes no part in previews, so a dynamic resource has no such
 * channel (a note in its checked inputs would show in every diff and stay in the state): the
 * permission row says it cannot tell, and the native provider is the way to an exact answer.
 */
export const RESOURCE_FIELDS_CHANGING = "resourceFieldsChanging";

/**
 * The property the native provider's preview of a CastConfig update adds to the planned outputs:
 * whether the update sends a group other than the config's (the declared group changed, or is no
 * longer declared), which 1.15.0's update_cast_config checks Groups Modify on both groups for (the
 * operation context `changesCastGroup`); the unknown placeholder when the new group is not known
 * during preview. It exists, and is absent, where {@link RESOURCE_FIELDS_CHANGING} is.
 */
export const CAST_GROUP_CHANGING = "groupChanging";

/**
 * Properties the native provider's preview of an update adds to the planned outputs for the
 * policy packs (see {@link RESOURCE_FIELDS_CHANGING}). They are neither inputs nor outputs: the
 * program never gives them, no SDK declares them, `diff` never compares them, and no state holds
 * them (states written by earlier versions of this package hold them in the inputs, where
 * {@link withoutPreviewNotes} leaves them out of every comparison).
 */
export const PREVIEW_NOTES = {
  Workspace: [RESOURCE_FIELDS_CHANGING],
  CastConfig: [CAST_GROUP_CHANGING],
} as const satisfies Partial<Record<KasmKind, readonly string[]>>;

/** The names of the notes a preview of `kind`'s update adds (none for most kinds). */
export type PreviewNoteOf<K extends KasmKind> = K extends keyof typeof PREVIEW_NOTES ? (typeof PREVIEW_NOTES)[K][number] : never;

/** `props` without the notes of {@link PREVIEW_NOTES} an earlier version's check left in a state's inputs: what the program declared. */
export function withoutPreviewNotes<P extends Readonly<Record<string, unknown>>>(kind: string, props: P): P {
  const notes: readonly string[] = (PREVIEW_NOTES as Partial<Record<string, readonly string[]>>)[kind] ?? [];
  if (!notes.some((note) => note in props)) return props;
  return Object.fromEntries(Object.entries(props).filter(([key]) => !notes.includes(key))) as P;
}
