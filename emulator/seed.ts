/**
 * The seed file: what an emulator starts with (API keys, groups, users with their group
 * memberships and attributes, images, zones, servers, server pools, sessions, activation keys,
 * staging configs, cast configs, and egress providers, gateways, mappings and credentials).
 * Its format, the schema `Seed`, is in `seed-schema.ts` and exported from here too; this module
 * reads a seed file and loads a seed into a store.
 *
 * The objects an API call can create are created through the same model rules as that call
 * (uniqueness, references, required fields), so a seed cannot hold what the API would refuse;
 * a refusal names the entry.
 */
import { readFileSync } from "node:fs";
import type { PermissionName } from "../permissions";
import { AUTH_ANSWERS, EmulatorError, type AuthAnswers } from "./errors";
import { Seed, type SeedEgressBindingEntry, type SeedInput } from "./seed-schema";
import { canonicalId, DEFAULT_REGISTRY_CONFIG, emptyState, Store, withSlash } from "./store";
import { API_NAMES, type ApiNames } from "./vocabulary";

export { Seed, type SeedInput } from "./seed-schema";

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
  unique(
    "apiKeys.key",
    seed.apiKeys.map((k) => k.key),
  );
  unique(
    "users.username",
    seed.users.map((u) => u.username.trim().toLowerCase()),
  );
  unique(
    "zones.zone_name",
    seed.zones.map((z) => z.zone_name),
  );
  unique(
    "images.name",
    seed.images.flatMap((i) => (i.name === undefined ? [] : [i.name])),
  );
  // A pinned id names one object of its kind: the second of two would replace the first.
  const pinnedIds = (kind: string, ids: (string | undefined)[]) =>
    unique(
      kind,
      ids.filter((id) => id !== undefined).map((id) => canonicalId(id)!),
    );
  pinnedIds(
    "stagingConfigs.staging_config_id",
    seed.stagingConfigs.map((c) => c.staging_config_id),
  );
  pinnedIds(
    "castConfigs.cast_config_id",
    seed.castConfigs.map((c) => c.cast_config_id),
  );
  pinnedIds(
    "egressProviders.egress_provider_id",
    seed.egressProviders.map((p) => p.egress_provider_id),
  );
  pinnedIds(
    "egressGateways.egress_gateway_id",
    seed.egressGateways.map((g) => g.egress_gateway_id),
  );
  pinnedIds(
    "egressMappings.egress_provider_mapping_id",
    seed.egressMappings.map((m) => m.egress_provider_mapping_id),
  );
  pinnedIds(
    "egressCredentials.egress_credential_id",
    seed.egressCredentials.map((c) => c.egress_credential_id),
  );
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
  const userRef = (ref: string, where: string) => store.users.userByName(ref) ?? store.users.user(ref) ?? fail(where, `unknown user ${JSON.stringify(ref)}`);
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

  // Before the images: a Server Pool workspace names its pool.
  for (const p of seed.serverPools) store.servers.addSeedServerPool(p);

  for (const [i, im] of seed.images.entries()) {
    const { zone_name, server_pool_name, groups, ...fields } = im;
    // The product's admin UI asks for the container image of a Container workspace only (its ImageForm).
    if (fields.name === undefined && (fields.image_type ?? "Container") === "Container")
      fail(`images[${i}]`, "name (the container image) is required for a Container image; a Link, Server or Server Pool workspace (image_type) has none");
    const zone = zone_name === undefined ? undefined : zoneOf(zone_name, `images[${i}]`);
    const pool =
      server_pool_name === undefined
        ? undefined
        : (store.servers.serverPoolByName(server_pool_name) ??
          store.servers.serverPool(server_pool_name) ??
          fail(`images[${i}].server_pool_name`, `unknown server pool ${JSON.stringify(server_pool_name)}`));
    const image = store.images.addSeedImage({ ...fields, zone_id: zone?.zone_id, server_pool_id: pool?.server_pool_id });
    for (const [j, ref] of groups.entries()) store.groupImages.authorize(groupRef(ref, `images[${i}].groups[${j}]`).group_id, image.image_id);
  }

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
    const image = imageRef(s.image_name, `sessions[${i}].image_name`);
    // Seeded sessions bypass the license capacity: a seed describes what is already running.
    const session =
      s.username === undefined
        ? store.sessions.createStagedSession(image)
        : store.sessions.createSessionUnchecked(userRef(s.username, `sessions[${i}].username`), image);
    if (s.ws_id) store.sessions.pinSessionId(session, s.ws_id);
    for (const duration of s.recordings ?? []) store.sessions.addRecording(session, duration);
  }

  for (const k of seed.activationKeys) store.licenses.addSeedActivationKey(k);

  const registries = seed.registries ?? [{ config: DEFAULT_REGISTRY_CONFIG, schema_version: "1.0", do_auto_update: false, channel: null }];
  for (const r of registries) store.registries.add({ ...r.config, list_url: withSlash(r.config.list_url) }, r.schema_version, r.channel, r.do_auto_update);

  for (const [i, c] of seed.stagingConfigs.entries()) {
    const where = `stagingConfigs[${i}]`;
    const { staging_config_id, zone_name, image_name, server_pool_name, ...fields } = c;
    const zone = zoneOf(zone_name, where);
    const image = imageRef(image_name, `${where}.image_name`);
    const pool =
      server_pool_name === undefined
        ? undefined
        : (store.servers.serverPoolByName(server_pool_name) ?? fail(`${where}.server_pool_name`, `unknown server pool ${JSON.stringify(server_pool_name)}`));
    byModel(where, () =>
      store.staging.createStagingConfig(
        { ...fields, zone_id: zone.zone_id, image_id: image.image_id, ...(pool && { server_pool_id: pool.server_pool_id }) },
        pinned(staging_config_id),
      ),
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
    byModel(where, () => store.egress.createEgressGateway({ ...fields, egress_provider_id: provider.egress_provider_id }, pinned(egress_gateway_id)));
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
