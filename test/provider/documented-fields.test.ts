/**
 * The provider reads only API record fields the spec documents, unless it copes with the field's
 * absence. Per kind (provider/resources/*.ts, or the index.ts of a kind split into a folder of
 * parts), for the client's refresh reads (`UserReads` in provider/api/client.ts) and for the lookups (the index
 * of provider/lookups/ and its areas beside it; sdk/lookups/ too), {@link READS} lists the fields the code reads; the type checker
 * (./field-reads.ts) finds what the code really reads, including the fields `fromApiFields` picks
 * by name, and the first test fails when the two differ, so the table cannot go stale. Each field read must
 * be in the spec's list for its record, transcribed below from the spec (not taken from the
 * emulator or the provider, so a misreading on either side cannot hide), or be on
 * {@link COPES_WHEN_ABSENT} with the reason the kind still works against a Kasm that does not send
 * it (the emulator's spec-only default mode is that Kasm).
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fieldReads, scannedFiles, type FieldRead } from "./field-reads";

/** A file with a read in every form the scanner must see. */
const FIXTURE = join(__dirname, "field-reads.fixture.ts");
const FIXTURE_PLACE = "test/provider/field-reads.fixture.ts";
/** A file with a read by name list (`fromApiFields`) in every form the scanner must see. */
const NAME_LISTS_FIXTURE = join(__dirname, "field-reads.name-lists.fixture.ts");
const NAME_LISTS_FIXTURE_PLACE = "test/provider/field-reads.name-lists.fixture.ts";

// --- the spec's records, transcribed (developer API, "Resources and their fields" and the answers of "Endpoints") ---

const USER = [
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
];

const SERVER = [
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
];

/** Every record the provider reads, by the spec's name, with the fields the spec documents for it. */
const SPEC: Readonly<Record<string, readonly string[]>> = {
  user: USER,
  "user (batch_create_user)": [
    ...USER,
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
  ],
  "user assigned_servers item": ["server_id", "hostname", "friendly_name", "server_assignment_enabled"],
  "get_users answer": ["users", "total", "page"],
  group: ["name", "group_id"],
  "user attributes": ["user_attributes_id", "user_id", "ssh_public_key", "show_tips", "toggle_control_panel", "default_image", "auto_login_ws"],
  image: [
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
  ],
  zone: [
    "zone_id",
    "zone_name",
    "auto_scaling_enabled",
    "cloud_enabled",
    "cloud_region",
    "cloud_access_key_id",
    "cloud_secret_access_key",
    "vm_agent_image_id",
  ],
  server: SERVER,
  "server assigned_users item": ["user_id", "username"],
  "batch answer": ["error_message", "csv_validation_data", "resources"],
  "batch_create_user resources": ["users"],
  "batch_create_server resources": ["servers"],
  "staging config": [
    "staging_config_id",
    "zone_id",
    "zone_name",
    "image_id",
    "image_friendly_name",
    "num_sessions",
    "num_current_sessions",
    "expiration",
    "allow_ws_audio",
    "allow_ws_uploads",
    "allow_ws_downloads",
    "allow_ws_clipboard_down",
    "allow_ws_clipboard_up",
    "allow_ws_microphone",
  ],
  "casting config": [
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
    "allow_ws_audio",
    "allow_ws_uploads",
    "allow_ws_downloads",
    "allow_ws_clipboard_down",
    "allow_ws_clipboard_up",
    "allow_ws_microphone",
    "allow_ws_sharing",
    "ws_audio_default_on",
    "ws_ime_mode_default_on",
    "valid_until",
  ],
  "egress provider": ["egress_provider_id", "created", "name", "egress_provider_type", "enabled"],
  "egress gateway": ["egress_gateway_id", "name", "enabled", "country", "city", "config", "egress_provider_id", "active_connections"],
  "egress provider mapping": [
    "egress_provider_mapping_id",
    "enabled",
    "created",
    "user_id",
    "group_id",
    "image_id",
    "egress_provider_id",
    "allow_all_gateways",
    "egress_provider",
    "egress_gateways",
  ],
  "egress credential": [
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
  ],
  /** The target of a mapping or a credential: both records list the three. */
  "egress mapping or credential target": ["user_id", "group_id", "image_id"],
  /** The session permissions both the staging config and the casting config records document. */
  "staging or casting config session permissions": [
    "allow_ws_audio",
    "allow_ws_uploads",
    "allow_ws_downloads",
    "allow_ws_clipboard_down",
    "allow_ws_clipboard_up",
    "allow_ws_microphone",
  ],
  license: ["license_id", "expiration", "issued_at", "issued_to", "limit", "is_verified", "license_type", "sku", "features"],
  /**
   * Not the spec's: the group record of a released Kasm's get_groups, create_group and
   * update_group (the spec shows only name and group_id), read only with kasm:apiNames product.
   * Source: the group model's JSON fields in a decompile of the 1.15.0 API server.
   */
  "group (the product's group operations)": ["group_id", "name", "is_system", "description", "priority"],
  /**
   * Not the spec's: the fields a released Kasm's image record adds, read only with kasm:apiNames
   * product by Workspace. Source: the image model's JSON fields in a decompile of the 1.15.0 API
   * server; the same names in two public clients (a Terraform client tested against 1.16.1, KasmLink).
   */
  "image (the product's image operations)": ["categories", "gpu_count", "require_gpu", "uncompressed_size_mb", "image_type", "restrict_network_names"],
  /**
   * Not the spec's: an item of a released Kasm's get_images_group answer. Source: the group image
   * model in the 1.15.0 decompile; the Terraform client's GroupImage type.
   */
  "group image (the product's get_images_group)": [
    "group_image_id",
    "group_id",
    "image_id",
    "name",
    "image_name",
    "friendly_name",
    "image_friendly_name",
    "group_name",
    "image_src",
  ],
  /**
   * Not the spec's: a registry of a released Kasm's get_registries (and create_registry's
   * answer). Source: admin_api.get_registries and the Registry model in the 1.15.0 decompile;
   * `channel` from the Terraform client's Registry type (tested against 1.16.1).
   */
  "registry (the product's get_registries)": [
    "registry_id",
    "registry_url",
    "do_auto_update",
    "schema_version",
    "is_verified",
    "channel",
    "workspaces",
    "config",
  ],
  /**
   * Not the spec's: a workspace of a registry's list as Kasm keeps it. Source: the Terraform
   * client's RegistryWorkspaceResponse type; `docker_registry` read in the client's names.
   */
  "registry workspace (a registry's list)": ["name", "friendly_name", "description", "image_src", "ctr_registry", "categories"],
};

/**
 * The spec's record each provider schema stands for, or why it is not an API record (the
 * provider's own types that happen to live beside the schemas).
 */
const SCHEMA_RECORDS: Readonly<Record<string, string | { providerOwn: string }>> = {
  User: "user",
  BatchUser: "user (batch_create_user)",
  AssignedServer: "user assigned_servers item",
  UserPage: "get_users answer",
  Group: "group",
  UserAttributes: "user attributes",
  Image: "image",
  Zone: "zone",
  Server: "server",
  ServerUser: "server assigned_users item",
  BatchResult: "batch answer",
  BatchUsersResult: "batch_create_user resources",
  BatchServersResult: "batch_create_server resources",
  StagingConfig: "staging config",
  CastConfig: "casting config",
  EgressProvider: "egress provider",
  EgressGateway: "egress gateway",
  EgressProviderMapping: "egress provider mapping",
  EgressCredential: "egress credential",
  EgressTarget: "egress mapping or credential target",
  SessionPermissions: "staging or casting config session permissions",
  License: "license",
  GroupRecord: "group (the product's group operations)",
  ProductImage: "image (the product's image operations)",
  GroupImage: "group image (the product's get_images_group)",
  Registry: "registry (the product's get_registries)",
  RegistryWorkspace: "registry workspace (a registry's list)",
  registryShown: { providerOwn: "a registry's settings as a WorkspaceRegistry's inputs, which the client builds from the record (its reads are the client's)" },
  NewImage: { providerOwn: "the target_image the provider builds for the product's create_image" },
  imageSettingsShown: {
    providerOwn: "an image's settings as a Workspace's inputs, which the client builds from the product's record (its reads are the client's)",
  },
  stagingConfigShown: {
    providerOwn: "a staging config's settings as a StagingConfig's inputs, which the client builds from the record (its reads are the client's)",
  },
  egressProviderShown: {
    providerOwn: "an egress provider's settings as an EgressProvider's inputs, which the client builds from the record (its reads are the client's)",
  },
  egressGatewayShown: {
    providerOwn: "an egress gateway's settings as an EgressGateway's inputs, which the client builds from the record (its reads are the client's)",
  },
  egressProviderMappingShown: {
    providerOwn:
      "an egress provider mapping's settings as an EgressProviderMapping's inputs, which the client builds from the record (its reads are the client's)",
  },
  egressCredentialShown: {
    providerOwn: "an egress credential's settings as an EgressCredential's inputs, which the client builds from the record (its reads are the client's)",
  },
  castConfigShown: {
    providerOwn: "a casting config's settings as a CastConfig's inputs, which the client builds from the record (its reads are the client's)",
  },
  groupShown: { providerOwn: "a group's settings as a Group's inputs, which the client builds from the record (its reads are the client's)" },
  userShown: { providerOwn: "a user's settings as a User's inputs, which the client builds from the record (its reads are the client's)" },
  userAttributesShown: { providerOwn: "a user's attributes as a UserAttributes' inputs, which the client builds from the record (its reads are the client's)" },
  ImageUpdate: { providerOwn: "the target_image the provider builds for the product's update_image: the record's settings and the declared fields" },
  NewGroup: { providerOwn: "the target_group the provider builds for the product's create_group" },
  GroupUpdate: { providerOwn: "the target_group the provider builds for the product's update_group" },
  CreateCastConfigResult: { providerOwn: "the client's answer to a create that may have to be confirmed: {confirmed, cast_config}" },
  BatchUserRow: { providerOwn: "a row of a user import as the provider builds it, before it becomes CSV" },
};

/**
 * What each kind and lookup reads, by record. The lookups' reads count for their module,
 * provider/lookups/ (a read in a named function of sdk/lookups/ would count under
 * `sdk/lookups/index.ts#<function>`).
 */
const READS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  "provider/resources/cast-config.ts": {
    // With kasm:apiNames "product", refresh reads every documented field back (get_cast_config),
    // through the client's castConfigShown (below, under provider/api/schemas/casting.ts).
    "casting config": ["cast_config_id", "casting_config_name", "group_id", "image_friendly_name", "group_name", "session_remaining"],
    castConfigShown: ["groupId", "imageId", "sessionRemaining"],
    CreateCastConfigResult: ["confirmed", "cast_config"],
  },
  "provider/resources/egress-credential.ts": {
    "egress credential": ["egress_credential_id", "egress_provider_id", "name", "active_connections"],
    egressCredentialShown: ["allowAllGateways", "customCredential", "egressProviderId", "meshKey", "selectedGateways", "wireguardPrivateKey"],
  },
  "provider/resources/egress-gateway.ts": {
    "egress gateway": ["egress_gateway_id", "egress_provider_id", "active_connections", "name"],
    egressGatewayShown: ["egressProviderId"],
  },
  "provider/resources/egress-provider-mapping.ts": {
    "egress provider mapping": ["egress_provider_mapping_id", "created", "egress_provider_id"],
    "egress mapping or credential target": ["user_id", "group_id", "image_id"],
    egressProviderMappingShown: ["allowAllGateways", "egressProviderId", "enabled", "selectedGateways"],
  },
  "provider/resources/egress-provider.ts": {
    "egress provider": ["egress_provider_id", "created", "name", "egress_provider_type"],
  },
  "provider/resources/group-membership.ts": { group: ["group_id"] },
  "provider/resources/group-workspace.ts": { "group image (the product's get_images_group)": ["image_id"] },
  "provider/resources/group.ts": {
    group: ["group_id"],
    groupShown: ["description", "name"],
    NewGroup: ["name"],
  },
  "provider/resources/license-activation.ts": {
    license: ["license_id", "expiration", "issued_at", "limit", "is_verified", "license_type", "sku", "features"],
  },
  "provider/resources/server-drain.ts": { server: ["server_id", "is_draining"] },
  "provider/resources/server-import/index.ts": {
    "batch answer": ["resources"],
    "batch_create_server resources": ["servers"],
    server: [
      "server_id",
      "friendly_name",
      "hostname",
      "connection_port",
      "zone_name",
      "connection_type",
      "connection_credential_type",
      "use_user_private_key",
      "server_pool_id",
      "labels",
      "assigned_users",
    ],
    "server assigned_users item": ["username"],
  },
  "provider/resources/staging-config.ts": {
    "staging config": ["staging_config_id", "zone_name", "image_friendly_name", "num_current_sessions"],
    stagingConfigShown: ["imageId", "zoneId"],
  },
  "provider/resources/user-attributes.ts": {
    // The attributes' names here are those of the update body (UserAttributesUpdate, the record's fields); the record's reads are the client's userAttributesShown.
    "user attributes": ["user_attributes_id", "user_id"],
  },
  "provider/resources/user-groups.ts": { group: ["name", "group_id"], user: ["user_id"] },
  "provider/resources/user-links.ts": { user: ["user_id", "groups", "assigned_servers"], group: ["group_id", "name"] },
  "provider/resources/user-server-assignment.ts": { "user assigned_servers item": ["server_id"] },
  "provider/resources/user-set/index.ts": {
    "batch answer": ["resources"],
    "batch_create_user resources": ["users"],
    user: ["user_id", "username", "groups"],
    group: ["name", "group_id"],
    BatchUserRow: ["groups"],
  },
  "provider/resources/user.ts": {
    user: ["user_id", "username", "realm", "created"],
    userShown: ["username"],
  },
  "provider/resources/workspace.ts": {
    image: ["available", "friendly_name", "image_id", "name", "server_id", "zone_id"],
    imageSettingsShown: ["execConfig", "serverId", "zoneId"],
  },
  "provider/resources/workspace-registry.ts": {
    "registry (the product's get_registries)": ["config", "do_auto_update", "registry_id", "registry_url", "workspaces"],
    "registry workspace (a registry's list)": ["ctr_registry", "description", "friendly_name", "image_src", "name"],
  },
  // An image's settings as a Workspace's inputs, for the kind and for kasm-import.
  "provider/api/schemas/images.ts": {
    image: [
      "cores",
      "cpu_allocation_method",
      "ctr_registry",
      "description",
      "enabled",
      "exec_config",
      "friendly_name",
      "image_src",
      "memory",
      "name",
      "restrict_to_network",
      "restrict_to_server",
      "restrict_to_zone",
      "run_config",
      "server_id",
      "volume_mappings",
      "zone_id",
    ],
    "image (the product's image operations)": ["categories", "gpu_count", "image_type", "require_gpu", "restrict_network_names", "uncompressed_size_mb"],
    // A registry's settings as a WorkspaceRegistry's inputs, for the kind and for kasm-import.
    "registry (the product's get_registries)": ["channel", "do_auto_update", "registry_url"],
  },
  // A staging config's, a casting config's and the egress records' settings as the kinds' inputs, for the kinds and for kasm-import.
  "provider/api/schemas/staging.ts": {
    "staging config": ["zone_id", "image_id", "num_sessions", "expiration"],
    "staging or casting config session permissions": [
      "allow_ws_audio",
      "allow_ws_uploads",
      "allow_ws_downloads",
      "allow_ws_clipboard_down",
      "allow_ws_clipboard_up",
      "allow_ws_microphone",
    ],
  },
  "provider/api/schemas/egress.ts": {
    "egress provider": ["name", "egress_provider_type", "enabled"],
    // egress_gateway_id: the gateways a mapping or credential lists, as a selection's ids.
    "egress gateway": ["egress_gateway_id", "egress_provider_id", "name", "enabled", "country", "city", "config"],
    "egress provider mapping": ["egress_provider_id", "enabled", "allow_all_gateways", "egress_gateways"],
    "egress credential": [
      "egress_provider_id",
      "name",
      "username",
      "enabled",
      "allow_all_gateways",
      "egress_gateways",
      "limit_active_connections",
      "active_connection_limit",
      "wireguard_private_key",
      "mesh_key",
      "custom_credential",
    ],
    "egress mapping or credential target": ["user_id", "group_id", "image_id"],
  },
  // A group's, a user's and a user's attributes' settings as the kinds' inputs, for the kinds and for kasm-import.
  "provider/api/schemas/groups.ts": {
    group: ["name"],
    "group (the product's group operations)": ["description", "priority"],
  },
  "provider/api/schemas/users.ts": {
    user: ["username", "first_name", "last_name", "phone", "organization", "locked", "disabled"],
    "user attributes": ["ssh_public_key", "show_tips", "toggle_control_panel", "auto_login_ws", "default_image"],
  },
  "provider/api/schemas/casting.ts": {
    "casting config": [
      "casting_config_name",
      "session_remaining",
      "allow_anonymous",
      "allow_resume",
      "allow_ws_sharing",
      "allowed_referrers",
      "disable_control_panel",
      "disable_fixed_res",
      "disable_tips",
      "dynamic_ctr_network",
      "dynamic_ws_url",
      "enable_sharing",
      "enforce_client_settings",
      "error_url",
      "group_id",
      "image_id",
      "ip_request_limit",
      "ip_request_seconds",
      "key",
      "limit_ips",
      "limit_sessions",
      "require_recaptcha",
      "valid_until",
      "ws_audio_default_on",
      "ws_ime_mode_default_on",
      "ws_url",
    ],
    "staging or casting config session permissions": [
      "allow_ws_audio",
      "allow_ws_uploads",
      "allow_ws_downloads",
      "allow_ws_clipboard_down",
      "allow_ws_clipboard_up",
      "allow_ws_microphone",
    ],
  },
  // The user records of a refresh, from get_users pages (the pages the lookups' getUsers reads too).
  "provider/api/user-pages.ts": { "get_users answer": ["users", "total"] },
  // The client's shared reads (provider/api/client.ts): a refresh's user records (UserReads), and the listings the
  // checks before creates share (UsernameLookups: the users by username; KeyLookups: the other kinds by their natural key).
  "provider/api/client.ts": {
    user: ["user_id", "groups", "username"],
    group: ["name", "group_id"],
    "staging config": ["zone_id", "image_id"],
    "egress provider": ["name"],
    "egress gateway": ["egress_provider_id", "name"],
    "egress provider mapping": ["egress_provider_id"],
    "egress credential": ["egress_provider_id", "name"],
    "registry (the product's get_registries)": ["registry_url"],
    "casting config": ["key"],
  },
  // The lookups find their records in provider/lookups/ (the program's and the native provider's one implementation).
  "provider/lookups/index.ts": {
    image: ["name", "friendly_name"],
    zone: ["zone_name"],
    group: ["group_id", "name"],
    "registry (the product's get_registries)": ["registry_id", "registry_url", "workspaces"],
  },
};

/**
 * Fields read that the spec does not document for their record, each with how the reader copes
 * when Kasm does not send it. Every entry must be both read and undocumented (checked below).
 */
const COPES_WHEN_ABSENT: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, string>>>>>> = {
  "provider/resources/server-drain.ts": {
    server: {
      is_draining:
        "The spec names is_draining only as what set_drain_server sets. Without it in the record, refresh keeps the " +
        "declared value and warns once that drift cannot be seen; test/provider/server-drain.test.ts runs both cases.",
    },
  },
};

// --- checks --------------------------------------------------------------------------------------

/** The record name of a schema: the spec's record, or the schema's own name for the provider's own types. */
function recordOf(schema: string): string {
  const mapped = SCHEMA_RECORDS[schema];
  if (mapped === undefined)
    throw new Error(
      `The provider reads fields of the schema ${schema}, which this test does not know: add it to SCHEMA_RECORDS ` +
        `with the spec's record it stands for (and that record's documented fields to SPEC), or as providerOwn with why it is not an API record.`,
    );
  return typeof mapped === "string" ? mapped : schema;
}

/** Reads grouped as the table groups them: place -> record -> sorted fields. */
function grouped(reads: Map<string, FieldRead[]>): Record<string, Record<string, string[]>> {
  const table: Record<string, Record<string, string[]>> = {};
  for (const [place, list] of reads) for (const { schema, field } of list) ((table[place] ??= {})[recordOf(schema)] ??= []).push(field);
  for (const records of Object.values(table)) for (const fields of Object.values(records)) fields.sort();
  return table;
}

function sortedTable(table: typeof READS): Record<string, Record<string, string[]>> {
  return Object.fromEntries(
    Object.entries(table).map(([place, records]) => [place, Object.fromEntries(Object.entries(records).map(([r, f]) => [r, [...f].sort()]))]),
  );
}

const isProviderOwn = (record: string) => typeof SCHEMA_RECORDS[record] === "object";

describe("API record fields the provider reads", () => {
  let found: Record<string, Record<string, string[]>>;
  let fixture: FieldRead[];
  let nameListsFixture: FieldRead[];
  beforeAll(() => {
    // One type-checked program for the code and the fixture: building it is the slow part.
    const reads = fieldReads([...scannedFiles(), FIXTURE, NAME_LISTS_FIXTURE]);
    fixture = reads.get(FIXTURE_PLACE) ?? [];
    nameListsFixture = reads.get(NAME_LISTS_FIXTURE_PLACE) ?? [];
    reads.delete(FIXTURE_PLACE);
    reads.delete(NAME_LISTS_FIXTURE_PLACE);
    found = grouped(reads);
  }, 120_000);

  it("finds a read in every form: property, undeclared field, `in`, destructuring, string index", () => {
    expect([...fixture].sort((a, b) => a.field.localeCompare(b.field))).toEqual([
      { schema: "Server", field: "another_undeclared_field" },
      { schema: "Server", field: "field_the_schema_does_not_declare" },
      { schema: "User", field: "first_name" },
      { schema: "Server", field: "hostname" },
      { schema: "Server", field: "server_id" },
      { schema: "User", field: "username" },
    ]);
  });

  it("finds the fields a name list picks with fromApiFields, from a literal list or a constant", () => {
    expect([...nameListsFixture].sort((a, b) => a.field.localeCompare(b.field))).toEqual([
      { schema: "Zone", field: "auto_scaling_enabled" },
      { schema: "StagingConfig", field: "expiration" },
      { schema: "StagingConfig", field: "num_sessions" },
      { schema: "Zone", field: "zone_name" },
    ]);
  });

  it("lists in the table exactly the fields each kind and lookup reads (update READS when the code changes)", () => {
    expect(found).toEqual(sortedTable(READS));
  });

  it("reads only fields the spec documents for their record, or ones the reader copes without", () => {
    const undocumented: string[] = [];
    for (const [place, records] of Object.entries(READS))
      for (const [record, fields] of Object.entries(records)) {
        if (isProviderOwn(record)) continue;
        const documented = SPEC[record];
        expect(documented, `SPEC has no record named ${record}`).toBeDefined();
        for (const field of fields)
          if (!documented.includes(field) && !COPES_WHEN_ABSENT[place]?.[record]?.[field])
            undocumented.push(`${place} reads ${record}.${field}, which the spec does not document`);
      }
    expect(undocumented).toEqual([]);
  });

  it("keeps the copes-when-absent list to fields that are read and undocumented, each with a reason", () => {
    for (const [place, records] of Object.entries(COPES_WHEN_ABSENT))
      for (const [record, fields] of Object.entries(records))
        for (const [field, reason] of Object.entries(fields)) {
          expect(READS[place]?.[record], `${place} does not read ${record}`).toContain(field);
          expect(SPEC[record], `${record}.${field} is documented: take it off the list`).not.toContain(field);
          expect(reason.length).toBeGreaterThan(20);
        }
  });

  it("maps every provider schema to a record of the spec with its documented fields, or says why it is the provider's own", () => {
    for (const [schema, mapped] of Object.entries(SCHEMA_RECORDS))
      if (typeof mapped === "string") expect(SPEC[mapped], `${schema} -> ${mapped}`).toBeDefined();
      else expect(mapped.providerOwn.length, schema).toBeGreaterThan(20);
  });
});
