/**
 * The permission table against the providers it describes.
 *
 * For random API keys and random stacks of Kasm resources, `resource-needs-permissions` reports a
 * violation exactly when running the resources' lifecycle through the real provider
 * implementations (create, read, update of one field, delete, in dependency order) against the
 * emulator meets a permission refusal: a 403, or the provider's own "grant the key ..." error for
 * a user record whose groups or assigned servers Kasm left out for lack of a View permission.
 *
 * One emulator (one port, one client pool); each case gets a fresh store seeded with that case's
 * key, swapped in as the server's request handler. The policy is judged twice per case: as in
 * preview (ids of the stack's own objects not known, linked by property dependencies), and, when
 * every create succeeded, with the real ids. A Workspace's update is judged as its preview shows it
 * to the pack: with the compute-related fields it changes, as the native provider's preview notes them.
 *
 * What the generator keeps out, because the pack cannot know it and says so in its docs: `adopt`
 * (an adopting create may take either branch), users listed as having sessions who have none,
 * a user whose groups both a GroupMembership and a UserGroups manage, and a ServerImport row that
 * assigns (by username) a user whose groups the stack changes (the pack matches `assignedUsername`
 * with `globalAdminUserIds` by username, and cannot follow a group resource's `userId` to it).
 * Updates of the bulk kinds stay within what their create needed: a ServerImport changes one
 * row's port (a new server), a UserSet changes a name (update_user), adds a row without groups or
 * removes one (delete_user); group changes of a UserSet need group ids that no user may show yet.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveRegistry, type RegistrySite } from "../helpers/registry-site";
import { createApp } from "../../emulator/server";
import { storeFromSeed, type SeedInput } from "../../emulator/seed";
import type { Store } from "../../emulator/store";
import { API_NAMES_CONFIG, TEST_API_NAMES } from "../helpers/vocabulary";
import { configure, providers } from "../../provider";
import { kasmClient } from "../../provider/runtime";
import { KasmLicenseLimitError, KasmPermissionError } from "../../provider/api";
import {
  CAST_GROUP_CHANGING,
  closeUnderDependencies,
  OPERATIONS,
  RESOURCE_FIELDS_CHANGING,
  USER_FIELD_PERMISSIONS,
  type OperationName,
  type PermissionName,
} from "../../permissions";
import { resourceFieldsChanging } from "../../provider/resources/workspace";
import { castGroupChanging } from "../../provider/resources/cast-config";
import { readOnlyKey } from "../../policy/permissions/read-only-key";
import { resourceNeedsPermissions } from "../../policy/permissions/resource-needs-permissions";
import { judgeNeeds } from "../../permissions";
import { parseKeyConfig } from "../../policy/permissions/config";
import { analyseStack } from "../../policy/permissions/stack";
import { buildStack, isRef, type Spec } from "./consistency-stacks";
import { IDS, policyResources, runStackPolicy, UNKNOWN, type FixtureResource } from "./helpers";

// --- the world ---------------------------------------------------------------------------------

const KEY = { key: "case-key", secret: "case-secret" };
const NAMED_USER_KEY = "NAMED-USER-KEY-1";

function seedFor(permissions: readonly PermissionName[], readOnly: boolean): SeedInput {
  return {
    apiKeys: [{ name: "case", key: KEY.key, secret: KEY.secret, permissions: [...permissions], readOnly }],
    groups: [
      { group_id: IDS.allUsers, name: "All Users" },
      { group_id: IDS.administrators, name: "Administrators" },
      { group_id: IDS.devs, name: "devs" },
      { group_id: IDS.ops, name: "ops" },
    ],
    users: [
      { user_id: IDS.admin1, username: "admin1", groups: ["Administrators"] },
      { user_id: IDS.plain1, username: "plain1" },
      { user_id: IDS.plain2, username: "plain2", groups: ["devs"] },
    ],
    zones: [{ zone_id: IDS.zone, zone_name: "zone1" }],
    images: [
      { image_id: IDS.image1, name: "kasmweb/chrome" },
      { image_id: IDS.image2, name: "kasmweb/firefox" },
    ],
    servers: [
      { server_id: IDS.server1, hostname: "ws1.example.test", zone_name: "zone1" },
      { server_id: IDS.server2, hostname: "ws2.example.test", zone_name: "zone1" },
    ],
    activationKeys: [
      { activation_key: "ACTIVATION-KEY-1", seats: 1_000_000 },
      // Activated only by the license-limit case: as many named-user seats as the seed has users.
      { activation_key: NAMED_USER_KEY, seats: 3, license_type: "Per Named User" },
    ],
  };
}

/** Operations the providers call, and so the permissions that matter. */
const USED_OPERATIONS: OperationName[] = [
  "create_user",
  "get_user",
  "update_user",
  "delete_user",
  "get_attributes",
  "update_user_attributes",
  "add_user_group",
  "remove_user_group",
  "assign_user_server",
  "unassign_user_server",
  "create_staging_config",
  "get_staging_config",
  "update_staging_config",
  "delete_staging_config",
  "create_cast_config",
  "update_cast_config",
  "delete_cast_config",
  "set_drain_server",
  "get_servers",
  "activate",
  "create_egress_provider",
  "get_egress_providers",
  "update_egress_provider",
  "delete_egress_provider",
  "create_egress_gateway",
  "get_egress_gateways",
  "update_egress_gateway",
  "delete_egress_gateway",
  "create_egress_provider_mapping",
  "get_egress_provider_mapping",
  "update_egress_provider_mapping",
  "delete_egress_provider_mapping",
  "create_egress_credential",
  "get_egress_credentials",
  "batch_create_server",
  "batch_create_user",
  "get_users",
  // A released Kasm's group, image and registry operations, which only a product run's Group, Workspace, GroupWorkspace and WorkspaceRegistry resources call.
  ...(TEST_API_NAMES === "product"
    ? ([
        "get_groups",
        "create_group",
        "update_group",
        "delete_group",
        "get_images",
        "create_image",
        "update_image",
        "delete_image",
        "get_images_group",
        "add_images_group",
        "remove_images_group",
        "get_registries",
        "create_registry",
        "registry_auto_updates",
        "delete_registry",
      ] as const)
    : []),
];

/** Every permission the used operations may need, with their dependencies. */
const RELEVANT: PermissionName[] = [
  ...closeUnderDependencies([
    ...USED_OPERATIONS.flatMap((op) => [
      ...OPERATIONS[op].requires,
      ...(OPERATIONS[op].requiresOneOf ?? []),
      ...(OPERATIONS[op].contextual ?? []).flatMap((c) => c.add),
    ]),
    USER_FIELD_PERMISSIONS.groups,
    USER_FIELD_PERMISSIONS.assigned_servers,
  ]),
].sort();

// --- the policy's verdict ------------------------------------------------------------------------

/**
 * The stack as the policy sees it: in preview (`ids` empty: the stack's own ids unknown) or with
 * the real ids. A Workspace carries what the native preview notes for the update the lifecycle
 * makes (`resourceFieldsChanging`: the compute-related fields it changes), as the preview of that
 * update shows it to the pack; its other steps do not read it. A CastConfig likewise carries
 * whether the update moves it between groups (`groupChanging`).
 */
function fixture(specs: readonly Spec[], ids: ReadonlyMap<string, string>): FixtureResource[] {
  return specs.map((s) => {
    if (s.kind === "Workspace")
      return { kind: s.kind, name: s.name, props: { ...s.props, [RESOURCE_FIELDS_CHANGING]: resourceFieldsChanging(s.props, { ...s.props, ...s.update }) } };
    const props: Record<string, unknown> = {};
    const from: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(s.props)) {
      if (isRef(v)) {
        props[k] = ids.get(v.$ref) ?? UNKNOWN;
        from[k] = [v.$ref];
      } else props[k] = v;
    }
    if (s.kind === "User") props.userId = ids.get(s.name) ?? UNKNOWN;
    if (s.kind === "CastConfig") props[CAST_GROUP_CHANGING] = castGroupChanging(s.props, { ...s.props, ...s.update });
    return { kind: s.kind, name: s.name, props, from };
  });
}

/**
 * The policy's verdict, and the steps (`<Kind> <name> <step>`) the pack's analysis finds short,
 * so that a refusal can be checked to fall on a step the policy names.
 */
async function policySaysRefused(
  specs: readonly Spec[],
  ids: ReadonlyMap<string, string>,
  config: Record<string, unknown>,
): Promise<{ refused: boolean; messages: string[]; shortSteps: Set<string> }> {
  const resources = fixture(specs, ids);
  // The pack reports each cause once: a Read Only key through read-only-key, missing permissions
  // through resource-needs-permissions. Its verdict is the two together.
  const outcome = await runStackPolicy(resourceNeedsPermissions, resources, config);
  if (outcome.undecided) throw new Error(`the policy could not decide, with every fact known: ${outcome.undecided}`);
  const readOnly = await runStackPolicy(readOnlyKey, resources, config);
  if (readOnly.undecided) throw new Error(`read-only-key could not decide, with every fact known: ${readOnly.undecided}`);
  outcome.violations.push(...readOnly.violations);
  const key = parseKeyConfig("test", config);
  const analysis = analyseStack(policyResources(resources), key);
  const shortSteps = new Set<string>();
  for (const entry of analysis.entries)
    for (const s of judgeNeeds({ permissions: key.permissions!, readOnly: key.readOnly }, entry.needs).shortfalls)
      shortSteps.add(`${entry.kind} ${entry.name} ${s.step}`);
  return { refused: outcome.violations.length > 0, messages: outcome.violations.map((v) => v.message), shortSteps };
}

// --- the lifecycle through the providers ------------------------------------------------------------

/** A refusal for lack of permission: a 403, or the provider's own error for a field Kasm left out. */
function isPermissionFailure(error: unknown): boolean {
  if (error instanceof KasmPermissionError) return true;
  // A 403 about the license's seats is not about the key's permissions.
  if (error instanceof KasmLicenseLimitError) return false;
  const message = error instanceof Error ? error.message : String(error);
  return /HTTP 403/.test(message) || /Grant the API key|The API key needs all of/.test(message);
}

class Refused extends Error {}

/** Run the stack's lifecycle; resolves with where the first refusal happened, or undefined. */
async function runLifecycle(specs: readonly Spec[], store: Store, ids: Map<string, string>): Promise<string | undefined> {
  const live = new Map<string, { id: string; outs: Record<string, unknown>; inputs: Record<string, unknown> }>();
  const resolve = (props: Record<string, unknown>) => Object.fromEntries(Object.entries(props).map(([k, v]) => [k, isRef(v) ? ids.get(v.$ref) : v]));
  const step = async <T>(where: string, action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      if (isPermissionFailure(error)) throw new Refused(where);
      throw new Error(`${where} failed without a permission refusal: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const create = async (s: Spec, inputs: Record<string, unknown>) => {
    const provider = providers[s.kind];
    const checked = await provider.check({}, inputs);
    if (checked.failures?.length) throw new Error(`generator bug: ${s.kind} ${s.name} fails check: ${JSON.stringify(checked.failures)}`);
    const result = await step(`${s.kind} ${s.name} create`, () => provider.create(checked.inputs));
    return { id: result.id, outs: (result.outs ?? {}) as Record<string, unknown>, inputs: checked.inputs };
  };
  try {
    for (const s of specs) {
      const made = await create(s, resolve(s.props));
      live.set(s.name, made);
      ids.set(s.name, made.id);
      if (s.sessions) {
        const userId = s.kind === "UserSet" ? Object.values(made.outs.userIds as Record<string, string>)[0] : made.id;
        const user = store.users.user(userId)!;
        store.sessions.createSessionUnchecked(user, store.images.image(IDS.image1)!);
      }
    }
    for (const s of specs) {
      const { id, outs } = live.get(s.name)!;
      await step(`${s.kind} ${s.name} read`, () => providers[s.kind].read(id, outs));
    }
    for (const s of specs) {
      if (Object.keys(s.update).length === 0) continue;
      const current = live.get(s.name)!;
      const news = { ...current.inputs, ...resolve(s.update) };
      const provider = providers[s.kind];
      const diff = await provider.diff(current.id, current.outs, news);
      if (diff.replaces?.length) {
        // What the engine does for a replacement: create the new object, then delete the old one.
        const made = await create(s, news);
        await step(`${s.kind} ${s.name} delete (replaced)`, () => provider.delete(current.id, current.outs));
        live.set(s.name, made);
      } else if (diff.changes) {
        const result = await step(`${s.kind} ${s.name} update`, () => provider.update(current.id, current.outs, news));
        live.set(s.name, { ...current, outs: (result.outs ?? current.outs) as Record<string, unknown>, inputs: news });
      }
    }
    for (const s of [...specs].reverse()) {
      const { id, outs } = live.get(s.name)!;
      await step(`${s.kind} ${s.name} delete`, () => providers[s.kind].delete(id, outs));
    }
  } catch (error) {
    if (error instanceof Refused) return error.message;
    throw error;
  }
  return undefined;
}

// --- the property --------------------------------------------------------------------------------

const server = http.createServer();
let stores = 0;

/** The registry site a WorkspaceRegistry of a stack declares, served on loopback. */
let site: RegistrySite | undefined;

beforeAll(async () => {
  site = await serveRegistry();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const settings: Record<string, string> = {
    "kasm:baseUrl": `http://127.0.0.1:${port}`,
    "kasm:apiKey": KEY.key,
    "kasm:apiKeySecret": KEY.secret,
    "kasm:maxRetries": "0",
    // The check before changes reads each installation once per process (a deployment has one key
    // per connection), and its answer (the groups the key may list) then judges UserSet rows. Here
    // every case runs in this one process against a fresh store and key: one case's read would
    // judge the next case's rows. Off; the property is about permissions, which it never refuses.
    "kasm:checkBeforeChanges": "false",
    ...API_NAMES_CONFIG,
  };
  configure({ config: { get: (k: string) => settings[k] } });
  // LicenseActivation, EgressCredential and ServerImport warn on stderr on every delete (Kasm
  // cannot remove them), UserSet on some updates: thousands of cases would bury the test output.
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) =>
    /^warning: (LicenseActivation|EgressCredential|ServerImport|UserSet) /.test(String(chunk))
      ? true
      : (write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stderr.write;
});

afterAll(async () => {
  await site?.close();
  await kasmClient().close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The store of the case running now (see {@link serve}). */
let caseStore: Store | undefined;

/**
 * One emulator application for every case, over whichever store the case running now has:
 * building the application's route table takes about as long as a case's lifecycle, and the
 * routes do not depend on the store. Every property is read from the current store when used.
 */
const app = createApp(
  new Proxy({} as Store, {
    get: (_target, key) => {
      if (!caseStore) throw new Error("no case is running");
      return Reflect.get(caseStore, key);
    },
  }),
  { apiNames: TEST_API_NAMES },
);
server.on("request", app);

/** Serve a fresh store for one case. */
function serve(permissions: readonly PermissionName[], readOnly: boolean): Store {
  caseStore = storeFromSeed(seedFor(permissions, readOnly));
  stores += 1;
  return caseStore;
}

const NUM_RUNS = Number(process.env.POLICY_PROPERTY_RUNS ?? 1200);

describe("resource-needs-permissions agrees with the providers run against the emulator", () => {
  it(`for ${NUM_RUNS} random keys and stacks: a violation exactly when the lifecycle meets a permission refusal`, async () => {
    const started = Date.now();
    let refusedCases = 0;
    let knownModeChecks = 0;
    let resources = 0;
    const kinds = new Map<string, number>();
    const refusedKinds = new Map<string, number>();
    const arbitrary = fc.record({
      removed: fc.subarray(RELEVANT, { maxLength: 4 }),
      unrelated: fc.subarray(["Webfilters View", "Brandings View", "Reports View"] as PermissionName[], { maxLength: 2 }),
      globalAdmin: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
      readOnly: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
      seed: fc.integer(),
      size: fc.integer({ min: 1, max: 6 }),
    });
    await fc.assert(
      fc.asyncProperty(arbitrary, async (c) => {
        const tag = `c${stores}x`;
        const { specs, usersWithSessions } = buildStack(c.seed, c.size, tag, site?.url);
        resources += specs.length;
        for (const s of specs) kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + 1);
        const permissions = [
          ...RELEVANT.filter((p) => !c.removed.includes(p)),
          ...c.unrelated,
          ...(c.globalAdmin ? (["Global Admin"] as PermissionName[]) : []),
        ];
        const config = {
          permissions,
          readOnly: c.readOnly,
          systemGroupIds: { allUsers: IDS.allUsers, administrators: IDS.administrators },
          // By id, and by username for the users a ServerImport row assigns.
          globalAdminUserIds: [IDS.admin1, "admin1"],
          usersWithSessions,
        };
        const preview = await policySaysRefused(specs, new Map(), config);
        const store = serve(permissions, c.readOnly);
        const ids = new Map<string, string>();
        const refusedAt = await runLifecycle(specs, store, ids);
        const detail = () =>
          `removed: ${JSON.stringify(c.removed)}, readOnly: ${c.readOnly}, globalAdmin: ${c.globalAdmin}\n` +
          `stack: ${JSON.stringify(specs)}\nlifecycle refused at: ${refusedAt ?? "nowhere"}\npolicy: ${JSON.stringify(preview.messages)}`;
        if (refusedAt) {
          refusedCases += 1;
          const where = refusedAt.split(" ")[0] + " " + refusedAt.split(" ").slice(2).join(" ");
          refusedKinds.set(where, (refusedKinds.get(where) ?? 0) + 1);
        }
        expect(preview.refused, `preview verdict disagrees\n${detail()}`).toBe(refusedAt !== undefined);
        // The refusal falls on a step the policy names (a replacement's delete is a delete).
        if (refusedAt)
          expect([...preview.shortSteps], `the refused step is not one the policy names\n${detail()}`).toContain(refusedAt.replace(" (replaced)", ""));
        if (ids.size === specs.length) {
          knownModeChecks += 1;
          const known = await policySaysRefused(specs, ids, config);
          expect(known.refused, `verdict with known ids disagrees\n${detail()}`).toBe(refusedAt !== undefined);
        }
      }),
      { numRuns: NUM_RUNS },
    );
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `consistency: ${NUM_RUNS} cases (${refusedCases} refused, ${NUM_RUNS - refusedCases} allowed), ${resources} resources, ` +
        `${knownModeChecks} also judged with known ids, ${stores} fresh stores, ${seconds.toFixed(1)} s\n` +
        `resources by kind: ${[...kinds]
          .sort()
          .map(([k, n]) => `${k} ${n}`)
          .join(", ")}\n` +
        `first refusal at: ${[...refusedKinds]
          .sort((a, b) => b[1] - a[1])
          .map(([k, n]) => `${k} ${n}`)
          .join(", ")}`,
    );
  }, 240_000);
});

describe("a license limit is not a permission", () => {
  it("with every named-user seat taken, the policy passes a key that holds what a User needs, and the provider fails with the license error, not a refusal", async () => {
    const specs: Spec[] = [{ kind: "User", name: "u0", props: { username: "one-too-many", firstName: "Ada" }, update: {} }];
    const config = { permissions: RELEVANT, systemGroupIds: { allUsers: IDS.allUsers, administrators: IDS.administrators }, globalAdminUserIds: [IDS.admin1] };
    const verdict = await policySaysRefused(specs, new Map(), config);
    expect(verdict).toEqual({ refused: false, messages: [], shortSteps: new Set() });
    const store = serve(RELEVANT, false);
    store.licenses.activate(NAMED_USER_KEY, 3, null);
    await expect(runLifecycle(specs, store, new Map())).rejects.toThrow(
      /^User u0 create failed without a permission refusal: create_user: the server at \S+ refused the call: a license limit is reached \(HTTP 403 /,
    );
  });
});
