/**
 * The seed file's format: its zod schema, which is the documentation of the format
 * (emulator/README.md shows an example). Unknown fields are refused so that a typo does not go
 * unnoticed; any object may carry its own id, otherwise one is generated; references between
 * objects are by name (or id).
 *
 * Apart from the loading (`seed.ts`) so that the format reads whole, as a reader of the README
 * looks it up, without the store's calls between its fields; the loading imports it, and
 * `seed.ts` exports it as before.
 */
import { z } from "zod";
import { isPermissionName } from "../permissions";
import { AUTH_ANSWERS, type AuthAnswers } from "./errors";
import { canonicalId, parseTime } from "./store";
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

/**
 * A workspace image. The fields after `exec_config` are the product's (its create_image takes
 * them too); the registry's are in the emulator's names (`ctr_*`, the product's `docker_*`), and
 * the configs are objects here, not the JSON text the product's API takes. `name` is the container
 * image, required for a `Container` (the default `image_type`); a `Link`, `Server` or `Server Pool`
 * workspace has none and is stored with a null name, as the product stores one its admin UI makes
 * (it asks for the container image only of a Container workspace): such an image is referred to by
 * its `image_id` elsewhere in the seed.
 */
const SeedImage = z.strictObject({
  image_id: SeedId.optional(),
  name: z.string().min(1).optional(),
  friendly_name: z.string().optional(),
  description: z.string().optional(),
  enabled: z.boolean().optional(),
  memory: z.number().int().positive().optional(),
  cores: z.number().positive().optional(),
  zone_name: z.string().optional(),
  exec_config: z.record(z.string(), z.object({ cmd: z.string(), environment: z.record(z.string(), z.string()).optional() })).optional(),
  image_src: z.string().optional(),
  categories: z.array(z.string()).optional(),
  run_config: z.record(z.string(), z.unknown()).optional(),
  volume_mappings: z.record(z.string(), z.unknown()).optional(),
  ctr_registry: z.string().optional(),
  ctr_user: z.string().optional(),
  /** The registry password: answered masked, never in clear. */
  ctr_token: z.string().optional(),
  uncompressed_size_mb: z.number().int().nonnegative().optional(),
  image_type: z.string().optional(),
  gpu_count: z.number().int().nonnegative().optional(),
  require_gpu: z.boolean().optional(),
  cpu_allocation_method: z.string().optional(),
  /** The address a `Link` workspace opens. */
  link_url: z.string().optional(),
  /** The server pool (of `serverPools`, by name or id) a `Server Pool` workspace launches on. */
  server_pool_name: z.string().optional(),
  /** Names (or ids) of groups of the seed that may launch the image (product mode's group authorisations). */
  groups: z.array(z.string()).default([]),
});

const SeedZone = z.strictObject({
  zone_id: SeedId.optional(),
  zone_name: z.string().min(1),
  cloud_enabled: z.boolean().optional(),
  cloud_region: z.string().optional(),
  cloud_access_key_id: z.string().optional(),
  cloud_secret_access_key: z.string().optional(),
  /** The API documentation types it as a string, not a Kasm id: seeded as given. */
  vm_agent_image_id: z.string().optional(),
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
  /** Left out: a staged session nobody holds yet. */
  username: z.string().min(1).optional(),
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
  /** The name of a server pool of the seed: the product's server pool of the staged sessions. */
  server_pool_name: z.string().min(1).optional(),
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

/** A registry as already fetched: its list (`config`, with `list_url`, its URL), and its settings. */
const SeedRegistry = z.strictObject({
  config: z
    .object({ name: z.unknown(), icon: z.unknown(), description: z.unknown(), list_url: z.string().min(1), workspaces: z.array(z.unknown()) })
    .passthrough(),
  schema_version: z.string().default("1.0"),
  do_auto_update: z.boolean().default(false),
  channel: z.string().nullable().default(null),
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
  /**
   * The workspace registries (product mode), each as it was fetched: its `list.json` (`config`).
   * Left out: the one a fresh Kasm lists, Kasm's own, without workspaces (see emulator/README.md).
   */
  registries: z.array(SeedRegistry).optional(),
  stagingConfigs: z.array(SeedStagingConfig).default([]),
  castConfigs: z.array(SeedCastConfig).default([]),
  egressProviders: z.array(SeedEgressProvider).default([]),
  egressGateways: z.array(SeedEgressGateway).default([]),
  egressMappings: z.array(SeedEgressMapping).default([]),
  egressCredentials: z.array(SeedEgressCredential).default([]),
});

/** A seed as written in a file (defaults not yet applied). */
export type SeedInput = z.input<typeof Seed>;

/** The part of a mapping or credential entry that names its provider, target and gateways. */
export type SeedEgressBindingEntry = Pick<
  z.infer<typeof SeedEgressMapping>,
  "egress_provider_name" | "target" | "enabled" | "allow_all_gateways" | "selected_gateways"
>;
