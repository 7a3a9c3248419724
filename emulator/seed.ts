/**
 * The seed file: what an emulator starts with (API keys, groups, users, images, zones, servers,
 * server pools, sessions, activation keys).
 *
 * The schema below is the documentation of the format (emulator/README.md shows an example).
 * Unknown fields are refused so that a typo does not go unnoticed; any object may carry its own
 * id, otherwise one is generated; references between objects are by name.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { isPermissionName, type PermissionName } from "../catalogue";
import { AUTH_ANSWERS, type AuthAnswers } from "./errors";
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
  /** Group names (or ids) besides All Users. */
  groups: z.array(z.string()).default([]),
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
  const zoneByName = (name: string | undefined, where: string) => {
    if (name === undefined) return undefined;
    return store.servers.zoneByName(name) ?? fail(where, `unknown zone ${JSON.stringify(name)}`);
  };

  for (const [i, im] of seed.images.entries()) {
    const { zone_name, ...fields } = im;
    const zone = zoneByName(zone_name, `images[${i}].zone_name`);
    store.images.addSeedImage({ ...fields, zone_id: zone?.zone_id });
  }

  for (const p of seed.serverPools) store.servers.addSeedServerPool(p);

  for (const [i, u] of seed.users.entries()) {
    const groupIds = u.groups.map((ref, j) => {
      const group = store.groups.groupByNameOrId(ref);
      return group?.group_id ?? fail(`users[${i}].groups[${j}]`, `unknown group ${JSON.stringify(ref)}`);
    });
    const { user_id, groups: _groups, oidc_id, saml_id, ...fields } = u;
    const user = store.users.buildUser(u.username.trim().toLowerCase(), fields, groupIds);
    if (user_id) user.user_id = canonicalId(user_id)!;
    user.oidc_id = oidc_id ?? null;
    user.saml_id = saml_id ?? null;
    store.users.insertUser(user);
  }

  for (const [i, s] of seed.servers.entries()) {
    const zones = store.servers.allZones();
    const zone =
      zoneByName(s.zone_name, `servers[${i}].zone_name`) ??
      (zones.length === 1 ? zones[0] : fail(`servers[${i}]`, "zone_name is required when the seed has more or fewer than one zone"));
    const pool = s.server_pool_name
      ? (store.servers.serverPoolByName(s.server_pool_name) ??
        fail(`servers[${i}].server_pool_name`, `unknown server pool ${JSON.stringify(s.server_pool_name)}`))
      : undefined;
    const { zone_name: _zone, server_pool_name: _pool, assigned_users, ...fields } = s;
    const server = store.servers.addSeedServer({ ...fields, zone_id: zone.zone_id, server_pool_id: pool?.server_pool_id });
    for (const [j, name] of (assigned_users ?? []).entries()) {
      const user = store.users.userByName(name) ?? fail(`servers[${i}].assigned_users[${j}]`, `unknown user ${JSON.stringify(name)}`);
      store.users.assignUserServer(user.user_id, server.server_id);
    }
  }

  for (const [i, s] of seed.sessions.entries()) {
    const user = store.users.userByName(s.username) ?? fail(`sessions[${i}].username`, `unknown user ${JSON.stringify(s.username)}`);
    const image =
      store.images.imageByName(s.image_name) ?? fail(`sessions[${i}].image_name`, `unknown image ${JSON.stringify(s.image_name)}`);
    // Seeded sessions bypass the licence capacity: a seed describes what is already running.
    const session = store.sessions.createSessionUnchecked(user, image);
    if (s.ws_id) store.sessions.pinSessionId(session, s.ws_id);
    for (const duration of s.recordings ?? []) store.sessions.addRecording(session, duration);
  }

  for (const k of seed.activationKeys) store.licenses.addSeedActivationKey(k);
  return store;
}
