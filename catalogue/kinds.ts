/**
 * The kinds of Kasm resource, their type tokens (what policy packs match resources by) and the
 * steps of a resource's life.
 */

// --- kinds and steps -------------------------------------------------------------------------

/** Every kind of Kasm resource, by the name of its SDK class (its type token is `pulumi-nodejs:dynamic/kasm:<Kind>`). */
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
] as const;

/** A kind of Kasm resource, such as `User`. */
export type KasmKind = (typeof KASM_KINDS)[number];

/** Type guard: is `name` a kind of Kasm resource? */
export function isKasmKind(name: unknown): name is KasmKind {
  return typeof name === "string" && (KASM_KINDS as readonly string[]).includes(name);
}

/** The type token of a kind, what policies match resources by. */
export function kasmTypeToken(kind: KasmKind): string {
  return `pulumi-nodejs:dynamic/kasm:${kind}`;
}

/** The kind of a type token, or undefined when it is not a Kasm resource. */
export function kindOfTypeToken(type: unknown): KasmKind | undefined {
  if (typeof type !== "string" || !type.startsWith("pulumi-nodejs:dynamic/kasm:")) return undefined;
  const kind = type.slice("pulumi-nodejs:dynamic/kasm:".length);
  return isKasmKind(kind) ? kind : undefined;
}

/**
 * The inputs of each kind that hold a secret: the SDK wraps them with `pulumi.secret` and keeps
 * their outputs secret. The provider never names one as the property of a check failure (the
 * reason names it): the Pulumi CLI prints a failing property's value beside the reason, and for a
 * secret input that value is the secret, in plain text.
 */
export const SECRET_INPUTS = {
  User: ["password"],
  LicenseActivation: ["activationKey"],
  EgressGateway: ["config"],
  EgressCredential: ["password", "wireguardPrivateKey", "meshKey", "customCredential"],
  Workspace: ["registryUsername", "registryPassword"],
} as const satisfies Partial<Record<KasmKind, readonly string[]>>;

/** Whether `property` is a secret input of `kind` (see {@link SECRET_INPUTS}). */
export function isSecretInput(kind: string, property: string): boolean {
  const secrets: readonly string[] | undefined = (SECRET_INPUTS as Partial<Record<string, readonly string[]>>)[kind];
  return secrets?.includes(property) ?? false;
}

/** The steps of a resource's life that call Kasm. */
export const LIFECYCLE_STEPS = ["create", "read", "update", "delete"] as const;

/** A step of a resource's life: `create`, `read` (refresh), `update` (in place) or `delete`. */
export type LifecycleStep = (typeof LIFECYCLE_STEPS)[number];

/** Kinds whose provider changes an image's compute settings (and so may need Images Modify Resources, special permission 3). */
export const COMPUTE_SETTINGS_KINDS: readonly KasmKind[] = Object.freeze(["Workspace"]);
