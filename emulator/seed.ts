/**
 * The seed file: what an emulator starts with (API keys, groups, users with their group
 * memberships and attributes, images, zones, servers, server pools, sessions, activation keys,
 * staging configs, cast configs, and egress providers, gateways, mappings and credentials).
 *
 * The schema below is the documentation of the format (emulator/README.md shows an example).
 * Unknown fields are refused so that a typo does not go unnoticed; any object may carry its own
 * id, otherwise one is generated; references between objects are by name (or id).
 *
 * The objects an API call can create are created through the same model rules as that call
 * (uniqueness, references, required fields), so a seed cannot hold what the API would refuse;
 * a refusal names the entry.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { isPermissionName, type PermissionName } from "../catalogue";
import { AUTH_ANSWERS, EmulatorError, type AuthAnswers } from "./errors";
import { canonicalId, emptyState, parseTime, Store } from "./store";
import { API_NAMES, type ApiNames } from "./vocabulary";

const SeedId = z.string().refine((v) => canonicalId(v) !== undefined, "must be a UUID (32 hex digits, hyphens allowed)");

const SeedApiKey = z.strictObject({
  name: z.string().min(1),
  key: z.string().min(1),
  secret: z.string().min(1),
  permissions: z.array(z.string().refine(isPermissionName, { error: (i) => `unknown permission ${JSON.stringify(i.input)}` })),
  readOnly: z.boolean().default(false),
  expiresAt: z
    .string()
    .refine((v) => parseTime(v) !== undefined, "must be 'YYYY-MM-DD HH:MM:SS' (UTC) or ISO 8601")
    .nullable()
    .default(null),
});

const SeedGroup = z.strictObject({
  group_id: SeedId.optional(),
  name: z.string().min(1),
  description: z.string().optional(),
  /** 1 (first) to 4095 (last); default 100, 101, ... in the seed's order. */
  priority: z.number().int().min(1).max(4095).optional(),
});

/**
 * A user's attributes (update_user_attributes' fields); what is left out keeps the defaults of a
 * new user.
 */
const SeedUserAttributes = z.strictObject({
  ssh_public_key: z.string().nullable().optional(),
  show_tips: z.boolean().optional(),
  toggle_control_panel: z.boolean().optional(),
  /** The name (or id) of an image of the seed. */
  default_image_name: z.string().min(1).nullable().optional(),
  auto_login_ws: z.boolean().nullable().optional(),
});

const SeedUser = z.strictObject({
  user_id: SeedId.optional(),
  username: z.string().min(1),
  password: z.string().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  phone: z.string().optional(),
  organization: z.string().optional(),
  notes: z.string().optional(),
  locked: z.boolean().optional(),
  disabled: z.boolean().optional(),
  anonymous: z.boolean().optional(),
  realm: z.enum(["ldap", "local", "oidc", "saml"]).optional(),
  /** Identity-provider ids of an OIDC or SAML user (what the get_users filters oidc_id and saml_id match). */
  oidc_id: z.string().optional(),
  saml_id: z.string().optional(),
  /** Group names (or ids) besides All Users: the user's group memberships. */
  groups: z.array(z.string()).default([]),
  attributes: SeedUserAttributes.optional(),
});

const SeedImage = z.strictObject({
  image_id: SeedId.optional(),
  name: z.string().min(1),
  friendly_name: z.string().optional(),
  description: z.string().optional(),
  enabled: z.boolean().optional(),
  memory: z.number().int().positive().optional(),
  cores: z.number().positive().optional(),
  zone_name: z.string().optional(),
  exec_config: z.record(z.string(), z.object({ cmd: z.string(), environment: z.record(z.string(), z.string()).optional() })).optional(),
});

const SeedZone = z.strictObject({
  zone_id: SeedId.optional(),
  zone_name: z.string().min(1),
  cloud_enabled: z.boolean().optional(),
  cloud_region: z.string().optional(),
  cloud_access_key_id: z.string().optional(),
  cloud_secret_access_key: z.string().optional(),
});

const SeedServerPool = z.strictObject({
  server_pool_id: SeedId.optional(),
  server_pool_name: z.string().min(1),
  server_pool_type: z.string().optional(),
});

const SeedServer = z.strictObject({
  server_id: SeedId.optional(),
  hostname: z.string().min(1),
  friendly_name: z.string().optional(),
  connection_type: z.string().default("SSH"),
  port: z.number().int().min(1).max(65535).optional(),
  zone_name: z.string().optional(),
  server_pool_name: z.string().optional(),
  server_type: z.string().optional(),
  labels: z.array(z.string()).optional(),
  is_draining: z.boolean().optional(),
  /** Usernames of users assigned to the server. */
  assigned_users: z.array(z.string()).optional(),
});

const SeedSession = z.strictObject({
  ws_id: SeedId.optional(),
  username: z.string().min(1),
  image_name: z.string().min(1),
  /** Durations, in seconds, of recordings the session has. */
  recordings: z.array(z.number().int().nonnegative()).optional(),
});

const SeedActivationKey = z.strictObject({
  activation_key: z.string().min(1),
  seats: z.number().int().positive(),
  license_type: z.string().default("Per Concurrent Session"),
  sku: z.string().optional(),
  expiration: z.string().optional(),
  features: z.record(z.string(), z.boolean()).optional(),
});

/** The client permissions both kinds of config take, each optional (off by default). */
const SeedClientPermissions = {
  allow_ws_audio: z.boolean().optional(),
  allow_ws_uploads: z.boolean().optional(),
  allow_ws_downloads: z.boolean().optional(),
  allow_ws_clipboard_down: z.boolean().optional(),
  allow_ws_clipboard_up: z.boolean().optional(),
  allow_ws_microphone: z.boolean().optional(),
};

/**
 * A staging config (create_staging_config's fields). `zone_name` may be left out when the seed
 * has exactly one zone. The bounds are the API's (handlers/staging.ts): the spec's "num_sessions
 * integer" and "number of hours".
 */
const SeedStagingConfig = z.strictObject({
  staging_config_id: SeedId.optional(),
  /** The name (or id) of a zone of the seed. */
  zone_name: z.string().min(1).optional(),
  /** The name (or id) of an image of the seed. */
  image_name: z.string().min(1),
  num_sessions: z.number().int().nonnegative(),
  expiration: z.number().positive(),
  ...SeedClientPermissions,
});

/** A cast config (create_cast_config's fields); `key` is required, as the product requires it. */
const SeedCastConfig = z.strictObject({
  cast_config_id: SeedId.optional(),
  /** Default: the key. */
  casting_config_name: z.string().min(1).optional(),
  key: z.string().min(1),
  /** The name (or id) of an image of the seed. */
  image_name: z.string().min(1).optional(),
  /** The name (or id) of a group of the seed: the extra group of anonymous users. */
  group_name: z.string().min(1).optional(),
  allowed_referrers: z.array(z.string()).optional(),
  limit_sessions: z.boolean().optional(),
  session_remaining: z.number().int().nonnegative().optional(),
  limit_ips: z.boolean().optional(),
  ip_request_limit: z.number().int().optional(),
  ip_request_seconds: z.number().int().optional(),
  error_url: z.string().nullable().optional(),
  enable_sharing: z.boolean().optional(),
  disable_control_panel: z.boolean().optional(),
  disable_tips: z.boolean().optional(),
  disable_fixed_res: z.boolean().optional(),
  allow_anonymous: z.boolean().optional(),
  require_recaptcha: z.boolean().optional(),
  ws_url: z.string().nullable().optional(),
  dynamic_ws_url: z.boolean().optional(),
  dynamic_ctr_network: z.boolean().optional(),
  allow_resume: z.boolean().optional(),
  enforce_client_settings: z.boolean().optional(),
  ...SeedClientPermissions,
  allow_ws_sharing: z.boolean().optional(),
  ws_audio_default_on: z.boolean().optional(),
  ws_ime_mode_default_on: z.boolean().optional(),
  /** `YYYY-MM-DD HH:MM:SS` (UTC); null or left out: no expiry. */
  valid_until: z.string().nullable().optional(),
});

const SeedEgressProvider = z.strictObject({
  egress_provider_id: SeedId.optional(),
  name: z.string().min(1),
  egress_provider_type: z.enum(["wireguard", "openvpn", "custom"]),
  enabled: z.boolean().optional(),
});

const SeedEgressGateway = z.strictObject({
  egress_gateway_id: SeedId.optional(),
  /** The name of an egress provider of the seed. */
  egress_provider_name: z.string().min(1),
  name: z.string().min(1),
  enabled: z.boolean().optional(),
  country: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  config: z.string().nullable().optional(),
});

/**
 * What an egress mapping or credential applies to: exactly one user, group or image of the seed,
 * by name (or id). A field of its own because a credential's `username` is the VPN login.
 */
const SeedEgressTarget = z.strictObject({
  username: z.string().min(1).optional(),
  group_name: z.string().min(1).optional(),
  image_name: z.string().min(1).optional(),
});

/** The provider, target and gateways of a mapping or credential. */
const SeedEgressBinding = {
  /** The name of an egress provider of the seed. */
  egress_provider_name: z.string().min(1),
  target: SeedEgressTarget,
  enabled: z.boolean().optional(),
  /** false (the default) needs `selected_gateways`. */
  allow_all_gateways: z.boolean().optional(),
  /** Names of gateways of the provider. */
  selected_gateways: z.array(z.string()).optional(),
};

const SeedEgressMapping = z.strictObject({
  egress_provider_mapping_id: SeedId.optional(),
  ...SeedEgressBinding,
});

const SeedEgressCredential = z.strictObject({
  egress_credential_id: SeedId.optional(),
  ...SeedEgressBinding,
  name: z.string().min(1),
  username: z.string().nullable().optional(),
  password: z.string().nullable().optional(),
  wireguard_private_key: z.string().nullable().optional(),
  mesh_key: z.string().nullable().optional(),
  limit_active_connections: z.boolean().optional(),
  active_connection_limit: z.number().int().optional(),
  custom_credential: z.string().nullable().optional(),
});

/** The seed file's schema. Every list is optional. */
export const Seed = z.strictObject({
  /**
   * Answer with the fields the real product is known to send beyond the spec, too (see
   * emulator/README.md). Default false: exactly the documented fields.
   */
  observedFields: z.boolean().default(false),
  /**
   * Speak the released product's names (`product`: `allow_kasm_audio`, `request_kasm`, ...) rather
   * than the spec's (`spec`, the default); see emulator/README.md, "Product mode".
   */
  apiNames: z.enum(API_NAMES as [ApiNames, ...ApiNames[]]).default("spec"),
  /** Authentication answers of release 1.19 (the spec's, the default) or 1.15. */
  authAnswers: z.enum(AUTH_ANSWERS as [AuthAnswers, ...AuthAnswers[]]).default("1.19"),
  apiKeys: z.array(SeedApiKey).default([]),
  groups: z.array(SeedGroup).default([]),
  users: z.array(SeedUser).default([]),
  images: z.array(SeedImage).default([]),
  zones: z.array(SeedZone).default([]),
  servers: z.array(SeedServer).default([]),
  serverPools: z.array(SeedServerPool).default([]),
  sessions: z.array(SeedSession).default([]),
  activationKeys: z.array(SeedActivationKey).default([]),
  stagingConfigs: z.array(SeedStagingConfig).default([]),
  castConfigs: z.array(SeedCastConfig).default([]),
  egressProviders: z.array(SeedEgressProvider).default([]),
  egressGateways: z.array(SeedEgressGateway).default([]),
  egressMappings: z.array(SeedEgressMapping).default([]),
  egressCredentials: z.array(SeedEgressCredential).default([]),
});

/** A seed as written in a file (defaults not yet applied). */
export type SeedInput = z.input<typeof Seed>;

/** A seed that cannot be used: says which entry and why. */
export class SeedError extends Error {
  override name = "SeedError";
}

/** Read and validate a seed file. */
export function readSeedFile(path: string): SeedInput {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new SeedError(`cannot read seed file ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as SeedInput;
  } catch (error) {
    throw new SeedError(`seed file ${path} is not JSON: ${(error as Error).message}`);
  }
}

/**
 * The seed's `observedFields` flag (false when absent), or a {@link SeedError} when it is not a
 * boolean. Read on its own because a data file replaces the seed's objects but not its flag.
 */
export function seedObservedFields(input: SeedInput | undefined): boolean {
  const parsed = Seed.shape.observedFields.safeParse((input as { observedFields?: unknown } | undefined)?.observedFields);
  if (!parsed.success) throw new SeedError("seed: observedFields: must be true or false");
  return parsed.data;
}

/**
 * The seed's `apiNames` (`spec` when absent), or a {@link SeedError}. Read on its own, as
 * {@link seedObservedFields} is, so that a data file keeps the mode the seed gives.
 */
export function seedApiNames(input: SeedInput | undefined): ApiNames {
  const parsed = Seed.shape.apiNames.safeParse((input as { apiNames?: unknown } | undefined)?.apiNames);
  if (!parsed.success) throw new SeedError(`seed: apiNames: must be ${API_NAMES.map((n) => JSON.stringify(n)).join(" or ")}`);
  return parsed.data;
}

/** The seed's `authAnswers` (`1.19` when absent), or a {@link SeedError}. Read on its own, as {@link seedApiNames} is. */
export function seedAuthAnswers(input: SeedInput | undefined): AuthAnswers {
  const parsed = Seed.shape.authAnswers.safeParse((input as { authAnswers?: unknown } | undefined)?.authAnswers);
  if (!parsed.success) throw new SeedError(`seed: authAnswers: must be ${AUTH_ANSWERS.map((n) => JSON.stringify(n)).join(" or ")}`);
  return parsed.data;
}

/** Build a store from a seed, or throw a {@link SeedError} naming the first problem. */
export function storeFromSeed(input: SeedInput | undefined): Store {
  const parsed = Seed.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SeedError(`seed: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  const seed = parsed.data;
  const store = new Store(emptyState());
  const fail = (where: string, message: string): never => {
    throw new SeedError(`seed: ${where}: ${message}`);
  };
  const unique = (kind: string, values: string[]) => {
    const dup = values.find((v, i) => values.indexOf(v) !== i);
    if (dup !== undefined) fail(kind, `duplicate ${JSON.stringify(dup)}`);
  };
  unique("apiKeys.key", seed.apiKeys.map((k) => k.key));
  unique("users.username", seed.users.map((u) => u.username.trim().toLowerCase()));
  unique("zones.zone_name", seed.zones.map((z) => z.zone_name));
  unique("images.name", seed.images.map((i) => i.name));
  // A pinned id names one object of its kind: the second of two would replace the first.
  const pinnedIds = (kind: string, ids: (string | undefined)[]) =>
    unique(kind, ids.filter((id) => id !== undefined).map((id) => canonicalId(id)!));
  pinnedIds("stagingConfigs.staging_config_id", seed.stagingConfigs.map((c) => c.staging_config_id));
  pinnedIds("castConfigs.cast_config_id", seed.castConfigs.map((c) => c.cast_config_id));
  pinnedIds("egressProviders.egress_provider_id", seed.egressProviders.map((p) => p.egress_provider_id));
  pinnedIds("egressGateways.egress_gateway_id", seed.egressGateways.map((g) => g.egress_gateway_id));
  pinnedIds("egressMappings.egress_provider_mapping_id", seed.egressMappings.map((m) => m.egress_provider_mapping_id));
  pinnedIds("egressCredentials.egress_credential_id", seed.egressCredentials.map((c) => c.egress_credential_id));
  const pinned = (id: string | undefined) => (id === undefined ? undefined : canonicalId(id));

  /**
   * Apply a model's create (or update) to a seed entry: the model's refusal (the one the API
   * would answer) becomes a SeedError naming the entry.
   */
  const byModel = <T>(where: string, change: () => T): T => {
    try {
      return change();
    } catch (error) {
      if (error instanceof EmulatorError) return fail(where, error.message.replace(/^Invalid Request[.:]\s*/, ""));
      throw error;
    }
  };

  // Users, groups, images and zones are referred to by name, or by id when no object has that name.
  const imageRef = (ref: string, where: string) =>
    store.images.imageByName(ref) ?? store.images.image(ref) ?? fail(where, `unknown image ${JSON.stringify(ref)}`);
  const groupRef = (ref: string, where: string) => store.groups.groupByNameOrId(ref) ?? fail(where, `unknown group ${JSON.stringify(ref)}`);
  const userRef = (ref: string, where: string) =>
    store.users.userByName(ref) ?? store.users.user(ref) ?? fail(where, `unknown user ${JSON.stringify(ref)}`);
  /** An entry's zone: the one it names, else the seed's only zone. */
  const zoneOf = (name: string | undefined, where: string) => {
    if (name !== undefined)
      return store.servers.zoneByName(name) ?? store.servers.zone(name) ?? fail(`${where}.zone_name`, `unknown zone ${JSON.stringify(name)}`);
    const zones = store.servers.allZones();
    return zones.length === 1 ? zones[0] : fail(where, "zone_name is required when the seed has more or fewer than one zone");
  };

  // Each model fills in the product's defaults for what an entry leaves out; this function
  // resolves the references by name and words the errors.
  for (const k of seed.apiKeys) store.keys.addKey({ ...k, permissions: k.permissions as PermissionName[] });

  for (const [i, g] of seed.groups.entries()) {
    // Seeded groups come after the system groups in priority.
    if (store.groups.addSeedGroup(g, 100 + i) === "duplicate") fail(`groups[${i}]`, `duplicate group name ${JSON.stringify(g.name)}`);
  }

  for (const [i, z] of seed.zones.entries()) {
    if (store.servers.addSeedZone(z) === "duplicate") fail(`zones[${i}]`, `duplicate zone_id ${canonicalId(z.zone_id)}`);
  }

  for (const [i, im] of seed.images.entries()) {
    const { zone_name, ...fields } = im;
    const zone = zone_name === undefined ? undefined : zoneOf(zone_name, `images[${i}]`);
    store.images.addSeedImage({ ...fields, zone_id: zone?.zone_id });
  }

  for (const p of seed.serverPools) store.servers.addSeedServerPool(p);

  for (const [i, u] of seed.users.entries()) {
    const groupIds = u.groups.map((ref, j) => groupRef(ref, `users[${i}].groups[${j}]`).group_id);
    const { user_id, groups: _groups, oidc_id, saml_id, attributes, ...fields } = u;
    const user = store.users.buildUser(u.username.trim().toLowerCase(), fields, groupIds);
    if (user_id) user.user_id = canonicalId(user_id)!;
    user.oidc_id = oidc_id ?? null;
    user.saml_id = saml_id ?? null;
    store.users.insertUser(user);
    if (attributes) {
      const { default_image_name, ...rest } = attributes;
      const default_image =
        default_image_name === undefined || default_image_name === null
          ? default_image_name
          : imageRef(default_image_name, `users[${i}].attributes.default_image_name`).image_id;
      byModel(`users[${i}].attributes`, () => store.users.updateAttributes(user.user_id, { ...rest, default_image }));
    }
  }

  for (const [i, s] of seed.servers.entries()) {
    const zone = zoneOf(s.zone_name, `servers[${i}]`);
    const pool = s.server_pool_name
      ? (store.servers.serverPoolByName(s.server_pool_name) ??
        fail(`servers[${i}].server_pool_name`, `unknown server pool ${JSON.stringify(s.server_pool_name)}`))
      : undefined;
    const { zone_name: _zone, server_pool_name: _pool, assigned_users, ...fields } = s;
    const server = store.servers.addSeedServer({ ...fields, zone_id: zone.zone_id, server_pool_id: pool?.server_pool_id });
    for (const [j, name] of (assigned_users ?? []).entries()) {
      const user = userRef(name, `servers[${i}].assigned_users[${j}]`);
      store.users.assignUserServer(user.user_id, server.server_id);
    }
  }

  for (const [i, s] of seed.sessions.entries()) {
    const user = userRef(s.username, `sessions[${i}].username`);
    const image = imageRef(s.image_name, `sessions[${i}].image_name`);
    // Seeded sessions bypass the licence capacity: a seed describes what is already running.
    const session = store.sessions.createSessionUnchecked(user, image);
    if (s.ws_id) store.sessions.pinSessionId(session, s.ws_id);
    for (const duration of s.recordings ?? []) store.sessions.addRecording(session, duration);
  }

  for (const k of seed.activationKeys) store.licenses.addSeedActivationKey(k);

  for (const [i, c] of seed.stagingConfigs.entries()) {
    const where = `stagingConfigs[${i}]`;
    const { staging_config_id, zone_name, image_name, ...fields } = c;
    const zone = zoneOf(zone_name, where);
    const image = imageRef(image_name, `${where}.image_name`);
    byModel(where, () =>
      store.staging.createStagingConfig({ ...fields, zone_id: zone.zone_id, image_id: image.image_id }, pinned(staging_config_id)),
    );
  }

  for (const [i, c] of seed.castConfigs.entries()) {
    const where = `castConfigs[${i}]`;
    const { cast_config_id, image_name, group_name, ...fields } = c;
    const image_id = image_name === undefined ? undefined : imageRef(image_name, `${where}.image_name`).image_id;
    const group_id = group_name === undefined ? undefined : groupRef(group_name, `${where}.group_name`).group_id;
    byModel(where, () => store.casting.createCastConfig({ ...fields, image_id, group_id }, pinned(cast_config_id)));
  }

  for (const [i, p] of seed.egressProviders.entries()) {
    const { egress_provider_id, ...fields } = p;
    byModel(`egressProviders[${i}]`, () => store.egress.createEgressProvider(fields, pinned(egress_provider_id)));
  }
  const providerRef = (name: string, where: string) =>
    store.egress.providers().find((p) => p.name === name) ?? fail(where, `unknown egress provider ${JSON.stringify(name)}`);

  for (const [i, g] of seed.egressGateways.entries()) {
    const where = `egressGateways[${i}]`;
    const { egress_gateway_id, egress_provider_name, ...fields } = g;
    const provider = providerRef(egress_provider_name, `${where}.egress_provider_name`);
    byModel(where, () =>
      store.egress.createEgressGateway({ ...fields, egress_provider_id: provider.egress_provider_id }, pinned(egress_gateway_id)),
    );
  }

  /** The provider, target and gateways of a mapping or credential entry, as ids. */
  const egressBinding = (entry: SeedEgressBindingEntry, where: string) => {
    const provider = providerRef(entry.egress_provider_name, `${where}.egress_provider_name`);
    const { username, group_name, image_name } = entry.target;
    // The model's rule (the spec's "exactly one of user_id, group_id, image_id"), in the seed's words.
    if ([username, group_name, image_name].filter((ref) => ref !== undefined).length !== 1)
      fail(`${where}.target`, "give exactly one of username, group_name and image_name (the user, group or image it applies to)");
    const selected = entry.selected_gateways?.map(
      (name, j) =>
        store.egress.gateways().find((g) => g.egress_provider_id === provider.egress_provider_id && g.name === name)?.egress_gateway_id ??
        fail(`${where}.selected_gateways[${j}]`, `egress provider ${JSON.stringify(provider.name)} has no gateway named ${JSON.stringify(name)}`),
    );
    return {
      egress_provider_id: provider.egress_provider_id,
      user_id: username === undefined ? null : userRef(username, `${where}.target.username`).user_id,
      group_id: group_name === undefined ? null : groupRef(group_name, `${where}.target.group_name`).group_id,
      image_id: image_name === undefined ? null : imageRef(image_name, `${where}.target.image_name`).image_id,
      enabled: entry.enabled,
      allow_all_gateways: entry.allow_all_gateways,
      selected_gateways: selected,
    };
  };

  for (const [i, m] of seed.egressMappings.entries()) {
    const where = `egressMappings[${i}]`;
    const binding = egressBinding(m, where);
    byModel(where, () => store.egress.createEgressMapping(binding, pinned(m.egress_provider_mapping_id)));
  }

  for (const [i, c] of seed.egressCredentials.entries()) {
    const where = `egressCredentials[${i}]`;
    const { egress_credential_id, egress_provider_name: _p, target: _t, enabled: _e, allow_all_gateways: _a, selected_gateways: _s, ...fields } = c;
    const binding = egressBinding(c, where);
    byModel(where, () => store.egress.createEgressCredential({ ...fields, ...binding }, pinned(egress_credential_id)));
  }
  return store;
}

/** The part of a mapping or credential entry that names its provider, target and gateways. */
type SeedEgressBindingEntry = Pick<
  z.infer<typeof SeedEgressMapping>,
  "egress_provider_name" | "target" | "enabled" | "allow_all_gateways" | "selected_gateways"
>;
