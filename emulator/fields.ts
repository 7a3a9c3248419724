/**
 * The fields of every record on the wire: what the spec documents, and what only "observed" mode
 * adds (fields the real product is known to send beyond the spec, each with its evidence).
 *
 * Every serialiser in handlers/ builds its record through one of the definitions below, so that a
 * record carries exactly its documented fields by default. A client tested against the emulator
 * then cannot come to rely on a field that a real Kasm may not send. The lists are transcribed
 * from the spec's field tables (release 1.19.0); nothing here is shared with the provider.
 *
 * @example
 * ```ts
 * SERVER.form({ server_id: "…", …, is_draining: false }, observed);
 * ```
 */

import { CLIENT_PERMISSION_FIELDS } from "./models/common";
import { WireRecord } from "./wire-record";

export { WireRecord, type RecordValues } from "./wire-record";

// --- users ---------------------------------------------------------------------------------------

/** User (spec: Resources, User). `groups`, `wss`, `assigned_servers` and `company` each need a View permission. */
export const USER = new WireRecord("user", [
  "user_id",
  "username",
  "first_name",
  "last_name",
  "phone",
  "organization",
  "notes",
  "locked",
  "disabled",
  "anonymous",
  "realm",
  "created",
  "last_session",
  "two_factor",
  "program_id",
  "hash",
  "groups",
  "wss",
  "assigned_servers",
  "company",
]);

/** The fields the user record returned by batch_create_user carries besides the user's own. */
export const BATCH_USER_EXTRA = new WireRecord("batch user (extra fields)", [
  "failed_pw_attempts",
  "plan_start_date",
  "plan_end_date",
  "plan_id",
  "saml_id",
  "oidc_id",
  "subscription_id",
  "company_id",
  "company",
  "password_set_date",
  "city",
  "state",
  "country",
  "email",
  "custom_attribute_1",
  "custom_attribute_2",
  "custom_attribute_3",
  "crypt_password",
  "crypt_salt",
]);

/** An item of a user's `groups`. */
export const USER_GROUP = new WireRecord("user group", ["name", "group_id"]);

/** An item of a user's `assigned_servers`. */
export const ASSIGNED_SERVER = new WireRecord("assigned server", ["server_id", "hostname", "friendly_name", "server_assignment_enabled"]);

/** User attributes (get_attributes). */
export const USER_ATTRIBUTES = new WireRecord("user attributes", [
  "user_attributes_id",
  "user_id",
  "ssh_public_key",
  "show_tips",
  "toggle_control_panel",
  "default_image",
  "auto_login_ws",
]);

/** The answer of assign_user_server. */
export const USER_SERVER_ASSIGNMENT = new WireRecord("user server assignment", ["user_id", "server_id"]);

// --- sessions ------------------------------------------------------------------------------------

/**
 * A workspace session (the `ws` of get_ws_status, exec_command_ws and exec_ws): the fields the
 * spec has seen. An item of a user's `wss` (a "session summary") is a subset of these.
 */
export const SESSION = new WireRecord("session", ["ws_id", "start_date", "keepalive_date", "expiration_date", "server", "operational_status", "user"]);

/** A user's session summary: the spec does not list its fields; the emulator sends these of the session's. */
export const SESSION_SUMMARY = new WireRecord("session summary", ["ws_id", "start_date", "keepalive_date", "operational_status"]);

/** The `server` inside a session. */
export const SESSION_SERVER = new WireRecord("session server", ["server_id", "hostname", "port"]);

/** A `user` reference inside a session ({username, user_id}). */
export const USER_REF = new WireRecord("user reference", ["username", "user_id"]);

/** A session recording. `session_recording_download_url` only when asked for. */
export const RECORDING = new WireRecord("session recording", [
  "recording_id",
  "account_id",
  "session_recording_url",
  "session_recording_metadata",
  "session_recording_download_url",
]);

/** The metadata of a session recording. */
export const RECORDING_METADATA = new WireRecord("recording metadata", ["duration", "thumbnail", "timestamp"]);

// --- images, zones, servers ----------------------------------------------------------------------

/** Image (get_images). */
export const IMAGE = new WireRecord("image", [
  "image_id",
  "name",
  "friendly_name",
  "description",
  "enabled",
  "available",
  "memory",
  "cores",
  "cpu_allocation_method",
  "x_res",
  "y_res",
  "ctr_registry",
  "ctr_user",
  "ctr_token",
  "hash",
  "volume_mappings",
  "run_config",
  "persistent_profile_config",
  "persistent_profile_path",
  "exec_config",
  "imageAttributes",
  "restrict_to_network",
  "restrict_to_zone",
  "restrict_to_server",
  "zone_id",
  "zone_name",
  "server_id",
  "network_name",
  "image_src",
]);

/**
 * Zone (get_zones). The spec lists the brief form only ("fields of a zone record beyond those
 * listed: not shown"), so the full form carries the same fields.
 */
export const ZONE = new WireRecord("zone", [
  "zone_id",
  "zone_name",
  "auto_scaling_enabled",
  "cloud_enabled",
  "cloud_region",
  "cloud_access_key_id",
  "cloud_secret_access_key",
  "vm_agent_image_id",
]);

/**
 * Server (get_servers, batch_create_server). `is_draining` is not in the spec's server record;
 * observed mode adds it.
 */
export const SERVER = new WireRecord(
  "server",
  [
    "server_id",
    "created",
    "server_type",
    "agent_version",
    "container_limit",
    "cores",
    "memory",
    "ctr_images",
    "ctr_info",
    "hostname",
    "instance_id",
    "last_reported",
    "last_reported_elapsed",
    "operational_status",
    "provider",
    "memory_stats",
    "disk_stats",
    "network_interfaces",
    "cpu_percent",
    "cores_override",
    "memory_override",
    "gpus",
    "gpu_info",
    "gpu_percent",
    "gpu_memory_used_percent",
    "gpu_temp",
    "gpus_override",
    "manager_id",
    "manager",
    "core_calculations",
    "memory_calculations",
    "public_ip",
    "enabled",
    "prune_images_mode",
    "connection_type",
    "connection_info",
    "connection_username",
    "connection_password",
    "connection_port",
    "connection_private_key",
    "connection_passphrase",
    "connection_credential_type",
    "connection_sso_username_domain",
    "use_user_private_key",
    "max_simultaneous_sessions",
    "max_simultaneous_users",
    "zone_id",
    "zone_name",
    "zone",
    "server_pool_id",
    "server_pool_name",
    "friendly_name",
    "is_autoscaled",
    "agent_installed",
    "drain_time",
    "labels",
    "inherited_labels",
    "server_template_id",
    "autoscale_config",
    "registration_jwt",
    "registration_jwt_expiration",
    "assigned_users",
    "wss",
  ],
  {
    is_draining:
      "The spec names is_draining as the server flag that set_drain_server moves (its table of other " +
      "stateful flags), and set_drain_server takes it in target_server; the flag a server is drained by " +
      "is what the product stores and shows. The spec's server record does not list it.",
  },
);

/** The `zone` inside a server ({zone_id, zone_name}). */
export const SERVER_ZONE = new WireRecord("server zone", ["zone_id", "zone_name"]);

/** A computed load of a server (`core_calculations`, `memory_calculations`). */
export const SERVER_CALCULATION = new WireRecord("server calculation", ["percentage", "used", "max"]);

/** An item of a server's `assigned_users`. */
export const SERVER_USER = new WireRecord("server user", ["user_id", "username"]);

/** An item of a server's `wss`. */
export const SERVER_SESSION = new WireRecord("server session", ["ws_id", "start_date", "keepalive_date", "user"]);

// --- staging and casting -------------------------------------------------------------------------

/** Staging config. */
export const STAGING_CONFIG = new WireRecord("staging config", [
  "staging_config_id",
  "zone_id",
  "zone_name",
  "image_id",
  "image_friendly_name",
  "num_sessions",
  "num_current_sessions",
  "expiration",
  ...CLIENT_PERMISSION_FIELDS,
]);

/** Casting config (create_cast_config, update_cast_config). */
export const CAST_CONFIG = new WireRecord("casting config", [
  "cast_config_id",
  "casting_config_name",
  "image_id",
  "image_friendly_name",
  "key",
  "allowed_referrers",
  "limit_sessions",
  "session_remaining",
  "limit_ips",
  "ip_request_limit",
  "ip_request_seconds",
  "error_url",
  "enable_sharing",
  "disable_control_panel",
  "disable_tips",
  "disable_fixed_res",
  "allow_anonymous",
  "group_id",
  "group_name",
  "require_recaptcha",
  "ws_url",
  "dynamic_ws_url",
  "dynamic_ctr_network",
  "allow_resume",
  "enforce_client_settings",
  ...CLIENT_PERMISSION_FIELDS,
  "allow_ws_sharing",
  "ws_audio_default_on",
  "ws_ime_mode_default_on",
  "valid_until",
]);

// --- the product's own operations (product mode only; 1.15 decompile, admin_api.py) ---------------

/** A group as the product's get_groups lists it. */
export const PRODUCT_GROUP_ITEM = new WireRecord("group (get_groups)", [
  "group_id",
  "name",
  "description",
  "priority",
  "is_system",
  "group_metadata",
  "group_mappings",
]);

/** A group as the product's create_group and update_group answer it (its data model's JSON form). */
export const PRODUCT_GROUP = new WireRecord("group (create_group, update_group)", [
  "group_id",
  "name",
  "is_system",
  "description",
  "priority",
  "program_data",
  "group_metadata",
]);

/** A member as the product's get_users_group lists it (the username is `name`). */
export const PRODUCT_GROUP_MEMBER = new WireRecord("group member (get_users_group)", ["name", "user_id"]);

// --- egress --------------------------------------------------------------------------------------

/** Egress provider. */
export const EGRESS_PROVIDER = new WireRecord("egress provider", ["egress_provider_id", "created", "name", "egress_provider_type", "enabled"]);

/** Egress gateway. */
export const EGRESS_GATEWAY = new WireRecord("egress gateway", [
  "egress_gateway_id",
  "name",
  "enabled",
  "country",
  "city",
  "config",
  "egress_provider_id",
  "active_connections",
]);

/** The answer of create and update of a mapping: the mapping without its provider and gateways. */
export const EGRESS_MAPPING_BRIEF = new WireRecord("egress provider mapping (create, update)", [
  "egress_provider_mapping_id",
  "enabled",
  "created",
  "user_id",
  "group_id",
  "image_id",
  "egress_provider_id",
  "allow_all_gateways",
]);

/** Egress provider mapping (get_egress_provider_mapping). */
export const EGRESS_MAPPING = new WireRecord("egress provider mapping", [...EGRESS_MAPPING_BRIEF.documented, "egress_provider", "egress_gateways"]);

/** Egress credential. The password comes masked. */
export const EGRESS_CREDENTIAL = new WireRecord("egress credential", [
  "egress_credential_id",
  "name",
  "username",
  "password",
  "enabled",
  "user_id",
  "group_id",
  "image_id",
  "egress_provider_id",
  "allow_all_gateways",
  "wireguard_private_key",
  "mesh_key",
  "limit_active_connections",
  "active_connection_limit",
  "active_connections",
  "custom_credential",
  "egress_provider",
  "egress_gateways",
]);

/** The `egress_provider` inside a mapping or credential. */
export const EGRESS_PROVIDER_REF = new WireRecord("egress provider reference", ["egress_provider_id", "name", "egress_provider_type"]);

/** An item of the `egress_gateways` of a mapping or credential. */
export const EGRESS_GATEWAY_REF = new WireRecord("egress gateway reference", ["name", "egress_gateway_id"]);

/** An item of get_image_egress_gateways. */
export const IMAGE_EGRESS_GATEWAY = new WireRecord("image egress gateway", [
  "egress_gateway_id",
  "egress_gateway_name",
  "egress_credential_id",
  "city",
  "country",
  "egress_provider_name",
]);

// --- licenses ------------------------------------------------------------------------------------

/** License (activate). */
export const LICENSE = new WireRecord("license", [
  "license_id",
  "expiration",
  "issued_at",
  "issued_to",
  "limit",
  "is_verified",
  "license_type",
  "sku",
  "features",
]);

/** The `features` of a license: the spec's thirteen booleans. */
export const LICENSE_FEATURES = new WireRecord("license features", [
  "auto_scaling",
  "branding",
  "session_staging",
  "session_casting",
  "log_forwarding",
  "developer_api",
  "inject_ssh_keys",
  "saml",
  "ldap",
  "session_sharing",
  "login_banner",
  "url_categorization",
  "usage_limit",
]);

/** Every record definition, for the README's table and the tests. */
export const WIRE_RECORDS = [
  USER,
  BATCH_USER_EXTRA,
  USER_GROUP,
  ASSIGNED_SERVER,
  USER_ATTRIBUTES,
  USER_SERVER_ASSIGNMENT,
  SESSION,
  SESSION_SUMMARY,
  SESSION_SERVER,
  USER_REF,
  RECORDING,
  RECORDING_METADATA,
  IMAGE,
  ZONE,
  SERVER,
  SERVER_ZONE,
  SERVER_CALCULATION,
  SERVER_USER,
  SERVER_SESSION,
  STAGING_CONFIG,
  CAST_CONFIG,
  PRODUCT_GROUP_ITEM,
  PRODUCT_GROUP,
  PRODUCT_GROUP_MEMBER,
  EGRESS_PROVIDER,
  EGRESS_GATEWAY,
  EGRESS_MAPPING_BRIEF,
  EGRESS_MAPPING,
  EGRESS_CREDENTIAL,
  EGRESS_PROVIDER_REF,
  EGRESS_GATEWAY_REF,
  IMAGE_EGRESS_GATEWAY,
  LICENSE,
  LICENSE_FEATURES,
] as const;
