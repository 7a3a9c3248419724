/**
 * The policy config of the permissions pack: a description of the API key the pipeline applies
 * the stack with, and what the pack must be told about the target Kasm because it cannot ask it.
 *
 * Pulumi gives each policy its own config, so every policy of this pack that needs the key takes
 * these same properties (the README shows a file, and a one-line way to write it from one key
 * description).
 */
import type { PolicyConfigSchema, ReportViolation, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { ALL_PERMISSIONS, isPermissionName, type PermissionName } from "../../permissions";
import { referenceKey, type KnownFacts } from "../../permissions";
import { LOOKUP_NAMES, lookupOf, type LookupName } from "../../permissions/lookups";
import { isConnectionName } from "../../permissions/connections";
import { closestName } from "../../permissions/spelling";

/** The ids of the built-in groups in the target Kasm. */
export interface SystemGroupIds {
  readonly allUsers?: string;
  readonly administrators?: string;
}

/** The key and what is known about the target Kasm, from a policy's config. */
export interface KeyConfig {
  /** The key's permissions; undefined when the config does not give them. */
  readonly permissions?: readonly PermissionName[];
  /** The key's Read Only setting. */
  readonly readOnly: boolean;
  readonly systemGroupIds?: SystemGroupIds;
  /** Users (ids or usernames) that hold Global Admin; undefined when not given (not known). */
  readonly globalAdminUserIds?: readonly string[];
  /** Users (ids or usernames) that have running sessions. */
  readonly usersWithSessions: readonly string[];
}

/** The JSON schema of the key properties, for each policy's `configSchema`. */
export const KEY_CONFIG_PROPERTIES: PolicyConfigSchema["properties"] = {
  permissions: {
    type: "array",
    items: { type: "string" },
    uniqueItems: true,
    description:
      "The permissions of the pipeline's API key, named exactly as in the Kasm Developer API (for example 'Users View', " +
      "'Groups Modify System', 'Global Admin'). An unknown name is a config error.",
  },
  readOnly: {
    type: "boolean",
    default: false,
    description: "The key's Read Only setting: it overrides the permissions and allows read operations only.",
  },
  systemGroupIds: {
    type: "object",
    properties: {
      allUsers: { type: "string", description: "The id of the All Users group in the target Kasm." },
      administrators: { type: "string", description: "The id of the Administrators group in the target Kasm." },
    },
    additionalProperties: false,
    description:
      "The ids of the built-in groups All Users and Administrators, which need the Groups ... System permissions. " +
      "Without them the pack cannot tell a system group from another and says it could not decide.",
  },
  globalAdminUserIds: {
    type: "array",
    items: { type: "string" },
    description:
      "Users (ids or usernames) that hold Global Admin (members of Administrators); changing them needs Users Modify Admin. " +
      "When given, every other existing user is taken not to hold it; when left out, the pack says it could not decide.",
  },
  usersWithSessions: {
    type: "array",
    items: { type: "string" },
    description: "Users (ids or usernames) that will have running sessions when deleted: deleting them needs Sessions Delete.",
  },
};

/**
 * The JSON schema of `connections`: the key of each named installation (a dynamic resource's
 * `connection`, see `kasm.Connection`, or a native resource's explicit provider, by its resource
 * name), with the same properties as the top level, which describe the default one (`kasm:`).
 */
export const CONNECTIONS_PROPERTY: PolicyConfigSchema["properties"] = {
  connections: {
    type: "object",
    additionalProperties: { type: "object", properties: KEY_CONFIG_PROPERTIES, additionalProperties: false },
    description:
      "The API key of each other installation, by connection name (the name given to kasm.Connection; for native kasm:index resources, " +
      "the resource name of their explicit provider), with the same properties as " +
      'the top level: {"prod": {"permissions": [...]}}. A resource is judged against the key of its own installation; the top level ' +
      "describes the default connection (kasm:).",
  },
};

/** The JSON schema of `least-privilege`'s own properties (the other policies accept them and leave them unread). */
export const LEAST_PRIVILEGE_PROPERTIES: PolicyConfigSchema["properties"] = {
  reportWhenMinimal: { type: "boolean", default: false, description: "Report the set even when the key holds exactly it." },
  lookups: {
    type: "array",
    items: { type: "string", enum: [...LOOKUP_NAMES, ...LOOKUP_NAMES.map((n) => `${n}Output`)] },
    uniqueItems: true,
    description:
      "The lookups the program calls (getZone, getImageOutput, ...; [] for none). Policies cannot see lookups: without this list every lookup is taken " +
      "as possibly called, and the permissions they need are never reported as unneeded.",
  },
};

/** The config every policy of this pack takes (see {@link keyPolicy}): the key's properties and `connections`. */
export const KEY_POLICY_PROPERTIES: PolicyConfigSchema["properties"] = { ...KEY_CONFIG_PROPERTIES, ...CONNECTIONS_PROPERTY };

/** What a policy of this pack states: all but what the pack gives every policy (see {@link keyPolicy}). */
export type KeyPolicySpec<P extends ResourceValidationPolicy | StackValidationPolicy> = Omit<P, "tags" | "configSchema"> & {
  /** Its tags after `kasm` and `permissions`. */
  readonly moreTags?: readonly string[];
  /** Its own config properties, beside the key's. */
  readonly ownConfig?: PolicyConfigSchema["properties"];
  /** Whether the key's `permissions` must be given: a policy that judges them cannot guess them. */
  readonly requiresPermissions?: boolean;
};

/**
 * A policy of the permissions pack: tagged `kasm` and `permissions`, and taking the key's
 * properties ({@link KEY_CONFIG_PROPERTIES}) and `connections` as its config, since Pulumi gives
 * each policy its own config and every policy of this pack judges the key. A stack policy when
 * `spec` has `validateStack`, a resource policy when it has `validateResource`.
 */
export function keyPolicy(spec: KeyPolicySpec<StackValidationPolicy>): StackValidationPolicy;
export function keyPolicy(spec: KeyPolicySpec<ResourceValidationPolicy>): ResourceValidationPolicy;
export function keyPolicy(
  spec: KeyPolicySpec<StackValidationPolicy> | KeyPolicySpec<ResourceValidationPolicy>,
): StackValidationPolicy | ResourceValidationPolicy {
  const { moreTags = [], ownConfig, requiresPermissions, ...policy } = spec;
  const properties = { ...KEY_POLICY_PROPERTIES, ...ownConfig };
  return {
    ...policy,
    tags: ["kasm", "permissions", ...moreTags],
    configSchema: requiresPermissions ? { properties, required: ["permissions"] } : { properties },
  };
}

/**
 * A config that cannot be used: the readers throw it, and {@link readPolicyConfig} reports it as a
 * stack-level violation. Its stack is its message alone: thrown anywhere else, @pulumi/policy
 * prints the stack of what a policy throws, and the pack's own call frames tell whoever wrote the
 * config nothing.
 */
export class PolicyConfigError extends Error {
  override name = "PolicyConfigError";

  constructor(message: string) {
    super(message);
    this.stack = message;
  }
}

/** The names of the key's settings: what each of `connections` may hold. */
const KEY_SETTINGS = Object.keys(KEY_CONFIG_PROPERTIES ?? {});

/**
 * The names of every setting of the pack: what the top level of any of its policies' configs may
 * hold. One list for all: the README writes one key description under every policy's name, with
 * `lookups`, which only least-privilege reads.
 */
const PACK_SETTINGS: readonly string[] = [...Object.keys(KEY_POLICY_PROPERTIES ?? {}), ...Object.keys(LEAST_PRIVILEGE_PROPERTIES ?? {})];

/** The settings of `systemGroupIds`. */
const SYSTEM_GROUP_SETTINGS = ["allUsers", "administrators"];

/** The permission name closest to a misspelt one, if any is close. */
export function suggestPermission(name: string): PermissionName | undefined {
  const folded = name.replace(/\s+/g, " ").trim();
  return ALL_PERMISSIONS.find((p) => p.toLowerCase() === folded.toLowerCase()) ?? closestName(folded, ALL_PERMISSIONS);
}

/**
 * Refuse every setting of `raw` that `known` does not name, each with the one it most likely
 * meant: a misspelt `readonly` would otherwise be left unread, and the key judged as not Read Only.
 *
 * @param where The settings' place in the config, for the message: `systemGroupIds` (the top level
 *   when left out; {@link parseConnectionKeys} names a connection's).
 * @throws {@link PolicyConfigError} naming every unknown setting and the settings there are.
 */
export function refuseUnknownSettings(policy: string, raw: Record<string, unknown>, known: readonly string[], where?: string): void {
  const unknown = Object.keys(raw).filter((key) => !known.includes(key));
  if (unknown.length === 0) return;
  const described = unknown.map((key) => {
    const meant = closestName(key, known);
    return meant ? `'${key}' (did you mean '${meant}'?)` : `'${key}'`;
  });
  const place = where === undefined ? "" : `, ${where}`;
  throw new PolicyConfigError(
    `policy config of '${policy}'${place}: ${described.join(", ")} ${unknown.length > 1 ? "are not known properties" : "is not a known property"}; ` +
      `the known properties are ${known.join(", ")}: correct the name in the file given to --policy-pack-config.`,
  );
}

function stringList(policy: string, property: string, value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
    throw new PolicyConfigError(`policy config of '${policy}': ${property} must be a list of strings`);
  return value as string[];
}

/**
 * Read the key properties of a policy's config.
 *
 * @param settings Every setting the config may hold there: {@link PACK_SETTINGS} at the top level;
 *   by default the key's alone, as in each of `connections`.
 * @throws {@link PolicyConfigError} naming every unknown setting and every unknown permission name (with the closest real one).
 */
export function parseKeyConfig(policy: string, raw: Record<string, unknown>, settings: readonly string[] = KEY_SETTINGS): KeyConfig {
  refuseUnknownSettings(policy, raw, settings);
  const names = stringList(policy, "permissions", raw.permissions);
  if (names) {
    const unknown = names.filter((n) => !isPermissionName(n));
    if (unknown.length > 0) {
      const described = unknown.map((n) => {
        const suggestion = suggestPermission(n);
        return suggestion ? `'${n}' (did you mean '${suggestion}'?)` : `'${n}'`;
      });
      throw new PolicyConfigError(
        `policy config of '${policy}': unknown permission name${unknown.length > 1 ? "s" : ""} ${described.join(", ")}. ` +
          `Write each name exactly as the Kasm Developer API does, such as 'Users View' or 'Groups Modify System'.`,
      );
    }
  }
  const groups = raw.systemGroupIds;
  if (groups !== undefined && (groups === null || typeof groups !== "object" || Array.isArray(groups)))
    throw new PolicyConfigError(`policy config of '${policy}': systemGroupIds must be an object {"allUsers": "<id>", "administrators": "<id>"}`);
  if (groups !== undefined) refuseUnknownSettings(policy, groups as Record<string, unknown>, SYSTEM_GROUP_SETTINGS, "systemGroupIds");
  return {
    permissions: names as PermissionName[] | undefined,
    readOnly: raw.readOnly === true,
    systemGroupIds: groups as SystemGroupIds | undefined,
    globalAdminUserIds: stringList(policy, "globalAdminUserIds", raw.globalAdminUserIds),
    usersWithSessions: stringList(policy, "usersWithSessions", raw.usersWithSessions) ?? [],
  };
}

/**
 * Read the key properties of the config of a policy that cannot run without the key's permissions.
 *
 * @throws {@link PolicyConfigError} when `permissions` is left out, or as {@link parseKeyConfig} does.
 */
export function parseKeyConfigWithPermissions(
  policy: string,
  raw: Record<string, unknown>,
  settings: readonly string[] = KEY_SETTINGS,
): KeyConfig & { readonly permissions: readonly PermissionName[] } {
  const config = parseKeyConfig(policy, raw, settings);
  if (!config.permissions)
    throw new PolicyConfigError(
      `policy config of '${policy}': permissions is required: add "permissions" with the permissions of the pipeline's API key, ` +
        `named as the Kasm Developer API names them, such as ["Users View", "Users Modify"].`,
    );
  return { ...config, permissions: config.permissions };
}

/**
 * The name of an explicit native provider (`pulumi:providers:kasm`) as `connections` may give it:
 * the provider's resource name is the connection of the native resources on it, and programs
 * name resources more freely than `kasm.Connection` names connections (a YAML `kasmProd`). Names
 * with spaces and other punctuation are still refused, as most likely not meant as one.
 */
const PROVIDER_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * The keys of the named connections in a policy's config (`connections`), each read as the top
 * level is, by `parse`. A name is a connection's (a dynamic resource's `connection` input) or an
 * explicit native provider's resource name (see `connectionOf`).
 *
 * @throws {@link PolicyConfigError} for a name that cannot name a connection, or as `parse` does.
 */
function parseConnectionKeys<K extends KeyConfig>(
  policy: string,
  raw: Record<string, unknown>,
  parse: (policy: string, raw: Record<string, unknown>) => K,
): ReadonlyMap<string, K> {
  const connections = raw.connections;
  if (connections === undefined || connections === null) return new Map();
  if (typeof connections !== "object" || Array.isArray(connections))
    throw new PolicyConfigError(`policy config of '${policy}': connections must be an object, by connection name: {"prod": {"permissions": [...]}}`);
  const keys = new Map<string, K>();
  for (const [name, value] of Object.entries(connections as Record<string, unknown>)) {
    if (!isConnectionName(name) && !PROVIDER_NAME.test(name))
      throw new PolicyConfigError(
        `policy config of '${policy}': connections.${name}: a connection name is lower-case letters, digits and hyphens, starting with a letter, as given to kasm.Connection; ` +
          `for native resources (kasm:index:<Kind>) it is their explicit provider's resource name: letters, digits, '_', '.' and '-', starting with a letter or '_'`,
      );
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw new PolicyConfigError(`policy config of '${policy}': connections.${name} must be an object with the key's properties ({"permissions": [...]})`);
    try {
      keys.set(name, parse(policy, value as Record<string, unknown>));
    } catch (error) {
      if (!(error instanceof PolicyConfigError)) throw error;
      throw new PolicyConfigError(error.message.replace(`policy config of '${policy}': `, `policy config of '${policy}', connections.${name}: `));
    }
  }
  return keys;
}

/** The keys a policy's config describes: the default installation's and each named connection's. */
export interface InstallationKeys<K extends KeyConfig> {
  /** The default installation's key (`kasm:`): the top level of the config. */
  readonly top: K;
  /** Each named connection's key, by connection name (`connections`). */
  readonly named: ReadonlyMap<string, K>;
  /** The key of a resource's installation (undefined: the default one), or undefined when the config describes none. */
  of(connection: string | undefined): K | undefined;
}

/**
 * Read every key of a policy's config, each by `parse` ({@link parseKeyConfig}, or
 * {@link parseKeyConfigWithPermissions} for a policy that judges the permissions): the top level,
 * which may hold any setting of the pack ({@link PACK_SETTINGS}), then each of `connections`.
 *
 * @throws {@link PolicyConfigError} as `parse` and {@link parseConnectionKeys} do.
 */
export function parseInstallationKeys<K extends KeyConfig>(
  policy: string,
  raw: Record<string, unknown>,
  parse: (policy: string, raw: Record<string, unknown>, settings?: readonly string[]) => K,
): InstallationKeys<K> {
  const top = parse(policy, raw, PACK_SETTINGS);
  const named = parseConnectionKeys(policy, raw, parse);
  return { top, named, of: (connection) => (connection === undefined ? top : named.get(connection)) };
}

/**
 * Which policies have read their config in this run of the pack, and which problems were reported:
 * one problem repeated under every policy's name (as the README's `kasm-key.json` writes it) is
 * reported once. Every policy of the pack is a stack policy, and Pulumi runs each once per
 * AnalyzeStack, one after the other: a policy that meets its own name here again starts a new run.
 */
const thisRun = { policies: new Set<string>(), problems: new Set<string>() };

/**
 * Report a violation at the mandatory level whatever the policy's level, through `reportViolation`'s
 * object form: @pulumi/policy's server accepts `{ message, enforcementLevel }` there (its
 * `makeReportViolationFun`), though its type declares only `(message, urn?)`.
 * test/policy/analyzer-permissions.test.ts fails by name if that form goes away.
 */
function reportMandatory(reportViolation: ReportViolation, message: string): void {
  const report = reportViolation as unknown as (violation: { message: string; enforcementLevel: "mandatory" }) => void;
  report({ message, enforcementLevel: "mandatory" });
}

/**
 * Read a policy's config with `read`; when it cannot be used ({@link PolicyConfigError}), report
 * why as one stack-level violation and answer undefined, so that the policy judges nothing.
 *
 * A config the pack cannot use is not a verdict on the stack: it is reported as mandatory whatever
 * the policy's level, so that the run fails instead of passing with the key misread, and on the
 * stack, not on whichever resource came first. A problem that another policy's config repeats is
 * reported once per run.
 */
export function readPolicyConfig<T>(policy: string, reportViolation: ReportViolation, read: () => T): T | undefined {
  if (thisRun.policies.has(policy)) {
    thisRun.policies.clear();
    thisRun.problems.clear();
  }
  thisRun.policies.add(policy);
  try {
    return read();
  } catch (error) {
    if (!(error instanceof PolicyConfigError)) throw error;
    // The problem whoever's config holds it: the message without the policy's name.
    const problem = error.message.replace(`policy config of '${policy}'`, "");
    if (!thisRun.problems.has(problem)) {
      thisRun.problems.add(problem);
      reportMandatory(reportViolation, `${error.message} ${REPEATED_CONFIG}`);
    }
    return undefined;
  }
}

/** Where else a config problem may stand, said after each. */
const REPEATED_CONFIG =
  "Pulumi gives each policy its own config: correct it under every policy's name that repeats it. The pack judges nothing with a config it cannot use.";

/** The lookups a program calls, from `least-privilege`'s `lookups`. */
export interface LookupConfig {
  readonly names: readonly LookupName[];
  /** True when the config does not say: every lookup may be called. */
  readonly assumed: boolean;
}

/**
 * Read `lookups`: lookup names, either spelling (`getZone` or `getZoneOutput`). Left out: every
 * lookup may be called.
 *
 * @throws {@link PolicyConfigError} naming every name that is no lookup, and the lookups there are.
 */
export function parseLookups(policy: string, value: unknown): LookupConfig {
  const names = stringList(policy, "lookups", value);
  if (names === undefined) return { names: LOOKUP_NAMES, assumed: true };
  const unknown = names.filter((n) => lookupOf(n) === undefined);
  if (unknown.length > 0)
    throw new PolicyConfigError(
      `policy config of '${policy}': lookups names ${unknown.map((n) => `'${n}'`).join(", ")}, which ${unknown.length > 1 ? "are" : "is"} no lookup of pulumi-kasm. ` +
        `Name the lookups the program calls among ${LOOKUP_NAMES.join(", ")} (or their ...Output twins), or give [] for none.`,
    );
  return { names: [...new Set(names.map((n) => lookupOf(n)!))], assumed: false };
}

/** The facts the config gives (the stack adds its own, see `stack.ts`). */
export function configFacts(config: KeyConfig): KnownFacts {
  return {
    allUsersGroupId: config.systemGroupIds?.allUsers,
    administratorsGroupId: config.systemGroupIds?.administrators,
    globalAdminUsers: config.globalAdminUserIds?.map(referenceKey),
    usersWithSessions: config.usersWithSessions.map(referenceKey),
  };
}
