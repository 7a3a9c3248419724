/**
 * The fields of every record on the wire. By default the emulator answers with exactly the fields
 * the spec documents for each record (so a client tested here cannot come to rely on a field a
 * real Kasm may not send); observed mode (`observedFields`) adds exactly the fields listed in
 * emulator/README.md, and nothing else. The documented lists are transcribed here from the spec's
 * field tables, not imported from the emulator.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SeedInput } from "../../emulator/seed";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";

const ZONE = "0a000000000000000000000000000001";
const CHROME = "1b000000000000000000000000000001";
const ENGINEERING = "9e000000000000000000000000000001";
const WS1 = "3d000000000000000000000000000001";
const RECORDED = "4c000000000000000000000000000001";
const ACTIVATION_KEY = "-----BEGIN ACTIVATION KEY-----\nfields\n-----END ACTIVATION KEY-----";

const SEED: SeedInput = {
  apiKeys: [{ name: "users-only", key: "users-only", secret: "users-only-secret", permissions: ["Users View"] }],
  zones: [{ zone_id: ZONE, zone_name: "default", cloud_secret_access_key: "secret" }],
  images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome", zone_name: "default" }],
  groups: [{ group_id: ENGINEERING, name: "Engineering" }],
  users: [{ username: "alice", groups: ["Engineering"] }],
  servers: [{ server_id: WS1, hostname: "ws1.example.org", zone_name: "default", assigned_users: ["alice"] }],
  sessions: [{ ws_id: RECORDED, username: "alice", image_name: "kasmweb/chrome:1.16.0", recordings: [60] }],
  activationKeys: [{ activation_key: ACTIVATION_KEY, seats: 10 }],
};

// --- the spec's field lists, transcribed ---------------------------------------------------------

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
const USER_WITHOUT_VIEWS = USER.filter((f) => !["groups", "wss", "assigned_servers", "company"].includes(f));
const BATCH_USER = [
  ...USER,
  "failed_pw_attempts",
  "plan_start_date",
  "plan_end_date",
  "plan_id",
  "saml_id",
  "oidc_id",
  "subscription_id",
  "company_id",
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
];
const USER_ATTRIBUTES = ["user_attributes_id", "user_id", "ssh_public_key", "show_tips", "toggle_control_panel", "default_image", "auto_login_ws"];
const IMAGE = [
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
];
const ZONE_FIELDS = [
  "zone_id",
  "zone_name",
  "auto_scaling_enabled",
  "cloud_enabled",
  "cloud_region",
  "cloud_access_key_id",
  "cloud_secret_access_key",
  "vm_agent_image_id",
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
const SESSION = ["ws_id", "start_date", "keepalive_date", "expiration_date", "server", "operational_status", "user"];
const STAGING_CONFIG = [
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
];
const CAST_CONFIG = [
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
];
const EGRESS_PROVIDER = ["egress_provider_id", "created", "name", "egress_provider_type", "enabled"];
const EGRESS_GATEWAY = ["egress_gateway_id", "name", "enabled", "country", "city", "config", "egress_provider_id", "active_connections"];
const MAPPING_BRIEF = ["egress_provider_mapping_id", "enabled", "created", "user_id", "group_id", "image_id", "egress_provider_id", "allow_all_gateways"];
const MAPPING = [...MAPPING_BRIEF, "egress_provider", "egress_gateways"];
const EGRESS_CREDENTIAL = [
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
];
const LICENSE = ["license_id", "expiration", "issued_at", "issued_to", "limit", "is_verified", "license_type", "sku", "features"];
const LICENSE_FEATURES = [
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
];

/** Every record and envelope the scenario reads, with the spec's fields (sorted when compared). */
const DOCUMENTED: Record<string, string[]> = {
  create_user: ["user"],
  "create_user user": USER,
  "get_user user": USER,
  "get_user user, key without the View permissions": USER_WITHOUT_VIEWS,
  get_users: ["users", "total"],
  "get_users with page": ["users", "total", "page"],
  "get_users user": USER,
  "update_user user": USER,
  "user groups item": ["name", "group_id"],
  "user assigned_servers item": ["server_id", "hostname", "friendly_name", "server_assignment_enabled"],
  "user wss item": ["ws_id", "start_date", "keepalive_date", "operational_status"],
  get_attributes: ["user_attributes"],
  "get_attributes user_attributes": USER_ATTRIBUTES,
  assign_user_server: ["user_server_assignment"],
  "assign_user_server user_server_assignment": ["user_id", "server_id"],
  batch_create_user: ["error_message", "csv_validation_data", "resources"],
  "batch_create_user csv_validation_data": ["headers", "total_errors", "global_errors", "total_rows", "row_data", "file_bom"],
  "batch_create_user user": BATCH_USER,
  "batch_create_server server": SERVER,
  "get_images image": IMAGE,
  "get_zones brief zone": ZONE_FIELDS,
  "get_zones zone": ZONE_FIELDS,
  get_servers: ["server"],
  "get_servers server": SERVER,
  "server zone": ["zone_id", "zone_name"],
  "server core_calculations": ["percentage", "used", "max"],
  "server assigned_users item": ["user_id", "username"],
  "server wss item": ["ws_id", "start_date", "keepalive_date", "user"],
  "get_ws_status ws": SESSION,
  "session server": ["server_id", "hostname", "port"],
  "session user": ["username", "user_id"],
  get_session_recordings: ["session_recordings", "items", "page", "per_page", "total_duration"],
  "recording with download link": ["recording_id", "account_id", "session_recording_url", "session_recording_metadata", "session_recording_download_url"],
  "recording metadata": ["duration", "thumbnail", "timestamp"],
  "create_staging_config staging_config": STAGING_CONFIG,
  "get_staging_configs item": STAGING_CONFIG,
  "create_cast_config cast_config": CAST_CONFIG,
  "update_cast_config cast_config": CAST_CONFIG,
  "create_egress_provider egress_provider": EGRESS_PROVIDER,
  "get_egress_providers item": EGRESS_PROVIDER,
  "create_egress_gateway egress_gateway": EGRESS_GATEWAY,
  "get_egress_gateways item": EGRESS_GATEWAY,
  "create_egress_provider_mapping egress_provider_mapping": MAPPING_BRIEF,
  "update_egress_provider_mapping egress_provider_mapping": MAPPING_BRIEF,
  "get_egress_provider_mapping item": MAPPING,
  "mapping egress_provider": ["egress_provider_id", "name", "egress_provider_type"],
  "mapping egress_gateways item": ["name", "egress_gateway_id"],
  create_egress_credential: ["egress_credentials"],
  "create_egress_credential item": EGRESS_CREDENTIAL,
  "get_egress_credentials item": EGRESS_CREDENTIAL,
  get_image_egress_gateways: ["egress_gateways", "image_id"],
  "get_image_egress_gateways item": ["egress_gateway_id", "egress_gateway_name", "egress_credential_id", "city", "country", "egress_provider_name"],
  activate: ["license"],
  "activate license": LICENSE,
  "license features": LICENSE_FEATURES,
};

/** What observed mode adds, record by record (emulator/README.md, "Observed mode"). */
const OBSERVED_EXTRAS: Record<string, string[]> = {
  "batch_create_server server": ["is_draining"],
  "get_servers server": ["is_draining"],
};

// --- the scenario --------------------------------------------------------------------------------

const sorted = (fields: string[]) => [...fields].sort();
const keysOf = (value: unknown): string[] => {
  expect(value, "a record").toBeTypeOf("object");
  return sorted(Object.keys(value as object));
};

/** An upload of `csv` to a batch operation, as multipart/form-data with header credentials. */
async function upload(emulator: TestEmulator, operation: "batch_create_user" | "batch_create_server", csv: string) {
  const boundary = `----fields-${randomBytes(8).toString("hex")}`;
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file_content"; filename="import.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
  );
  const res = await emulator.raw("POST", `/api/public/${operation}?view=all`, {
    body,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "api-key": ADMIN.key, "api-key-secret": ADMIN.secret },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Run every operation that answers a record, and note the fields of each record it shows. */
async function fieldsSeen(emulator: TestEmulator): Promise<Record<string, string[]>> {
  const seen: Record<string, string[]> = {};
  const ok = async (operation: Parameters<TestEmulator["call"]>[0], body: Record<string, unknown> = {}, creds?: { key: string; secret: string }) => {
    const res = await emulator.call(operation, body, creds);
    expect(res.status, `${operation}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  const note = (name: string, record: unknown) => {
    seen[name] = keysOf(record);
  };

  // Users
  const created = await ok("create_user", { target_user: { username: "fields-user", first_name: "F" } });
  note("create_user", created);
  note("create_user user", created.user);
  const alice = (await ok("get_user", { target_user: { username: "alice" } })).user;
  note("get_user user", alice);
  note("user groups item", alice.groups[0]);
  note("user assigned_servers item", alice.assigned_servers[0]);
  note("user wss item", alice.wss[0]);
  note(
    "get_user user, key without the View permissions",
    (await ok("get_user", { target_user: { username: "alice" } }, { key: "users-only", secret: "users-only-secret" })).user,
  );
  const users = await ok("get_users", {});
  note("get_users", users);
  note("get_users user", users.users[0]);
  note("get_users with page", await ok("get_users", { page: 0 }));
  note("update_user user", (await ok("update_user", { target_user: { user_id: created.user.user_id, last_name: "L" } })).user);
  const attributes = await ok("get_attributes", { target_user: { user_id: alice.user_id } });
  note("get_attributes", attributes);
  note("get_attributes user_attributes", attributes.user_attributes);
  const assignment = await ok("assign_user_server", { target_user: { user_id: created.user.user_id }, target_server: { server_id: WS1 } });
  note("assign_user_server", assignment);
  note("assign_user_server user_server_assignment", assignment.user_server_assignment);
  const batchUsers = await upload(emulator, "batch_create_user", "username,first_name,group_1\nbatch-user,B,Engineering\n");
  note("batch_create_user", batchUsers);
  note("batch_create_user csv_validation_data", batchUsers.csv_validation_data);
  note("batch_create_user user", batchUsers.resources.users[0]);

  // Images, zones, servers, sessions
  note("get_images image", (await ok("get_images")).images[0]);
  note("get_zones brief zone", (await ok("get_zones", { brief: true })).zones[0]);
  note("get_zones zone", (await ok("get_zones", {})).zones[0]);
  const servers = await ok("get_servers", { target_server: { server_id: WS1 } });
  note("get_servers", servers);
  note("get_servers server", servers.server);
  note("server zone", servers.server.zone);
  note("server core_calculations", servers.server.core_calculations);
  note("server assigned_users item", servers.server.assigned_users[0]);
  note("server wss item", servers.server.wss[0]);
  const batchServers = await upload(emulator, "batch_create_server", "name,ip_hostname,port,zone_name,connection_type\nLab,lab.example.org,22,default,SSH\n");
  note("batch_create_server server", batchServers.resources.servers[0]);
  const status = await ok("get_ws_status", { ws_id: RECORDED, user_id: alice.user_id });
  note("get_ws_status ws", status.ws);
  note("session server", status.ws.server);
  note("session user", status.ws.user);
  const recordings = await ok("get_session_recordings", { target_ws_id: RECORDED, preauth_download_link: true });
  note("get_session_recordings", recordings);
  note("recording with download link", recordings.session_recordings[0]);
  note("recording metadata", recordings.session_recordings[0].session_recording_metadata);

  // Staging and casting
  note(
    "create_staging_config staging_config",
    (
      await ok("create_staging_config", {
        target_staging_config: { zone_id: ZONE, image_id: CHROME, num_sessions: 1, expiration: 2 },
      })
    ).staging_config,
  );
  note("get_staging_configs item", (await ok("get_staging_configs")).staging_configs[0]);
  const cast = (await ok("create_cast_config", { target_cast_config: { key: "fields-kiosk", image_id: CHROME, group_id: ENGINEERING } })).cast_config;
  note("create_cast_config cast_config", cast);
  note(
    "update_cast_config cast_config",
    (await ok("update_cast_config", { target_cast_config: { cast_config_id: cast.cast_config_id, disable_tips: true } })).cast_config,
  );

  // Egress
  const provider = (await ok("create_egress_provider", { target_egress_provider: { name: "Fields VPN", egress_provider_type: "wireguard", enabled: true } }))
    .egress_provider;
  note("create_egress_provider egress_provider", provider);
  note("get_egress_providers item", (await ok("get_egress_providers")).egress_providers[0]);
  const gateway = (
    await ok("create_egress_gateway", {
      target_egress_gateway: {
        egress_provider_id: provider.egress_provider_id,
        name: "Zurich",
        enabled: true,
        country: "CH",
        city: "Zurich",
        config: "[Interface]",
      },
    })
  ).egress_gateway;
  note("create_egress_gateway egress_gateway", gateway);
  note("get_egress_gateways item", (await ok("get_egress_gateways")).egress_gateways[0]);
  const selection = { egress_provider_id: provider.egress_provider_id, allow_all_gateways: false, selected_gateways: [gateway.egress_gateway_id] };
  const mapping = (await ok("create_egress_provider_mapping", { target_egress_provider_mapping: { ...selection, enabled: true, image_id: CHROME } }))
    .egress_provider_mapping;
  note("create_egress_provider_mapping egress_provider_mapping", mapping);
  note(
    "update_egress_provider_mapping egress_provider_mapping",
    (
      await ok("update_egress_provider_mapping", {
        target_egress_provider_mapping: { egress_provider_mapping_id: mapping.egress_provider_mapping_id, enabled: true },
      })
    ).egress_provider_mapping,
  );
  const listed = (await ok("get_egress_provider_mapping", { target_egress_provider_mapping: {} })).egress_provider_mappings[0];
  note("get_egress_provider_mapping item", listed);
  note("mapping egress_provider", listed.egress_provider);
  note("mapping egress_gateways item", listed.egress_gateways[0]);
  const credential = await ok("create_egress_credential", {
    target_egress_credential: { ...selection, name: "alice-vpn", user_id: alice.user_id, username: "a", password: "p", enabled: true },
  });
  note("create_egress_credential", credential);
  note("create_egress_credential item", credential.egress_credentials[0]);
  note("get_egress_credentials item", (await ok("get_egress_credentials", { target_egress_credential: {} })).egress_credentials[0]);
  const imageGateways = await ok("get_image_egress_gateways", { target_user: { user_id: alice.user_id }, target_image: { image_id: CHROME } });
  note("get_image_egress_gateways", imageGateways);
  note("get_image_egress_gateways item", imageGateways.egress_gateways[0]);

  // Licenses
  const activation = await ok("activate", { activation_key: ACTIVATION_KEY, seats: 2, issued_to: "Fields" });
  note("activate", activation);
  note("activate license", activation.license);
  note("license features", activation.license.features);
  return seen;
}

function expected(extras: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(DOCUMENTED).map(([name, fields]) => [name, sorted([...fields, ...(extras[name] ?? [])])]));
}

describe("default mode: exactly the documented fields", () => {
  let emulator: TestEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator(SEED);
  });
  afterAll(() => emulator.close());

  it("answers every record with exactly the fields the spec lists for it", async () => {
    expect(await fieldsSeen(emulator)).toEqual(expected({}));
  });
});

describe("observed mode: the documented fields plus exactly the listed extras", () => {
  let emulator: TestEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator(SEED, { observedFields: true });
  });
  afterAll(() => emulator.close());

  it("adds is_draining to server records and nothing anywhere else", async () => {
    expect(emulator.observedFields).toBe(true);
    expect(await fieldsSeen(emulator)).toEqual(expected(OBSERVED_EXTRAS));
  });
});

describe("choosing the mode", () => {
  const drainFlagShown = async (emulator: TestEmulator) =>
    "is_draining" in (await emulator.call("get_servers", { target_server: { server_id: WS1 } })).body.server;
  const started: TestEmulator[] = [];
  afterAll(async () => {
    await Promise.all(started.map((e) => e.close()));
  });
  const start = async (seed: SeedInput, options: { observedFields?: boolean; dataFile?: string } = {}) => {
    const emulator = await startTestEmulator(seed, options);
    started.push(emulator);
    return emulator;
  };
  const servers: SeedInput = { zones: SEED.zones, servers: [{ server_id: WS1, hostname: "ws1.example.org" }] };

  it("is spec-only unless asked for", async () => {
    const emulator = await start(servers);
    expect(emulator.observedFields).toBe(false);
    expect(await drainFlagShown(emulator)).toBe(false);
  });

  it("is observed with the seed's top-level observedFields: true", async () => {
    const emulator = await start({ ...servers, observedFields: true });
    expect(emulator.observedFields).toBe(true);
    expect(await drainFlagShown(emulator)).toBe(true);
  });

  it("follows the option over the seed's flag", async () => {
    const emulator = await start({ ...servers, observedFields: true }, { observedFields: false });
    expect(emulator.observedFields).toBe(false);
    expect(await drainFlagShown(emulator)).toBe(false);
  });

  it("takes the seed's flag on a restart from a data file too (the data replaces the seed's objects, not its flag)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kasm-emulator-fields-"));
    try {
      const dataFile = join(dir, "data.json");
      const first = await startTestEmulator({ ...servers, observedFields: true }, { dataFile });
      expect(await drainFlagShown(first)).toBe(true);
      await first.close();
      const again = await start({ observedFields: true }, { dataFile });
      expect(await drainFlagShown(again)).toBe(true);
      const plain = await start({}, { dataFile });
      expect(await drainFlagShown(plain)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a seed whose observedFields is not a boolean, naming the field", async () => {
    await expect(start({ ...servers, observedFields: "yes" as never })).rejects.toThrow(/observedFields/);
  });
});
