/**
 * What stands between the engine and a kind's provider, in the order a change meets it: which
 * installation the object lives on (the dynamic host's `connection` input, {@link acrossConnections}),
 * whether that installation can take the change (the one read of it before a change is planned,
 * with which both hosts end `check`: {@link failuresBeforePlan}), and the client each lifecycle
 * step is then handed, which refuses what the kind did not declare ({@link withDeclaredCalls}).
 * They live together because each decides, for one method of one kind, which client of which
 * installation it talks to and what that client may do; the kinds know of none of them.
 *
 * The connection input: every kind takes one, naming the installation that holds the object.
 *
 * Pulumi's `provider` resource option cannot serve here: a dynamic resource's provider is Pulumi's
 * own `pulumi-nodejs` one, and the engine owns it. So the installation is an input, like
 * Terraform's `provider` meta-argument: the name of a connection (`prod`), whose settings live
 * under their own configuration namespace and environment prefix (`kasm-prod:baseUrl`,
 * `KASM_PROD_API_KEY_SECRET`; see api/config.ts). Left out, the resource uses `kasm:`, as before.
 * Only the name is kept in the state: never a setting, never the secret.
 *
 * This wrapper gives every kind the input without the kinds knowing of it: `check` validates the
 * name, refuses a connection whose settings are missing or invalid (naming its own keys, with no
 * request), and hands the kind its inputs without it; every method is handed the context
 * (`KindContext`: the client and settings) of the connection the object lives on (the new inputs'
 * for check, create and update, the state's for diff, read and delete, so that refresh and delete go to the installation that
 * holds the object, whatever the program says now); `diff` replaces the resource when the name
 * changes (created in the new installation, deleted from the old one); outputs carry the name.
 *
 * A create or update that fails half way keeps the object in the state (an error with `id` and
 * `properties`, see `initializationFailure`). Those properties must say where the object lives and
 * how to load its provider, or the next update or delete would go to the default installation, or
 * find no provider at all: the host adds `__provider` to the outputs of a success only. So this
 * wrapper adds both, the connection and the serialized provider, to every such error.
 *
 * The same wrapper carries the resource's Pulumi name (`__resourceName`, which the sdk adds, as Pulumi
 * adds `__provider`): the dynamic-provider host tells a provider neither the URN nor the name, and
 * a warning that names the resource by a Kasm id (`UserSet 3f2a...`) tells the user nothing. The
 * kinds never see it either: their context's `label` names the resource by it.
 */
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import { connectionEnvPrefix, connectionNamespace, isConnectionName } from "../../../permissions/connections";
import { withoutPreviewNotes, type KasmKind, type LifecycleStep } from "../../../permissions/kinds";
import type { OperationName } from "../../../permissions/operations";
import { knowledgeFromFacts, type KindCalls } from "../../../permissions/planned-calls";
import type { AllowedCalls } from "../../api/allowed-calls";
import type { KasmClient } from "../../api/client";
import { howToSet, type SettingNames } from "../../api/config";
import { KasmAuthenticationError } from "../../api/errors/answers";
import { KasmConfigurationError } from "../../api/errors/base";
import { KasmHealthCheckError, KasmTransportError } from "../../api/errors/connection";
import { KasmMissingOperationError, KasmUnknownPathError, KasmVocabularyError } from "../../api/errors/vocabulary";
import type { GroupRecord } from "../../api/schemas/groups";
import { WsStatus } from "../../api/schemas/sessions";
import { connectionConfigurationProblem, contextFor } from "../../runtime";
import { KasmUndeclaredCallError } from "./errors";
import type { HostProvider, Kind, KindContext, Props } from "./types";

/** The input's name. */
export const CONNECTION_INPUT = "connection";

/** The connection named in inputs or outputs (undefined: the default one). */
function connectionOf(props: Props | undefined): string | undefined {
  const value = props?.[CONNECTION_INPUT];
  return typeof value === "string" ? value : undefined;
}

/** The input the sdk gives every resource: its Pulumi name. */
export const NAME_INPUT = "__resourceName";

/** The resource's name in inputs or outputs (undefined in a state written before it was kept). */
function nameOf(props: Props | undefined): string | undefined {
  const value = props?.[NAME_INPUT];
  return typeof value === "string" ? value : undefined;
}

/** The properties without the connection and the name, as the kind knows them. */
function withoutHiddenInputs(props: Props): Props {
  if (!(CONNECTION_INPUT in props) && !(NAME_INPUT in props)) return props;
  const { [CONNECTION_INPUT]: _connection, [NAME_INPUT]: _name, ...rest } = props;
  return rest;
}

/**
 * The context of a method for the object of `props` (whose resource name it carries) on
 * `connection`: the kind is handed it, and never sees the hidden inputs themselves.
 */
function contextOf(props: Props | undefined, connection: string | undefined): KindContext {
  return contextFor(connection, nameOf(props));
}

/**
 * Rethrow `error`; when it keeps a half-done object in the state (`id` and `properties`), first
 * add the connection and the serialized provider of `inputs` to its properties.
 */
function keepingWhereItLives(error: unknown, inputs: Props, connection: string | undefined): never {
  if (error !== null && typeof error === "object" && "id" in error && "properties" in error) {
    const kept = error as { properties?: Props };
    const properties = kept.properties ?? {};
    kept.properties = {
      ...withWhereAndName(properties, connection, inputs),
      ...(properties.__provider === undefined && inputs.__provider !== undefined ? { __provider: inputs.__provider } : {}),
    };
  }
  throw error;
}

/**
 * Whether a resource's state was written by another provider than Pulumi's dynamic-provider host:
 * it holds no serialized provider (`__provider`), as a state the native provider wrote holds none.
 */
function isStateOfAnotherProvider(state: Props): boolean {
  return state.__provider === undefined;
}

/** The properties with the connection and the resource name of `from` added back (when there are): what the kind never sees. */
function withWhereAndName<T extends Props | undefined>(props: T, connection: string | undefined, from?: Props): T {
  const name = nameOf(from);
  if ((connection === undefined && name === undefined) || props === undefined) return props;
  return { ...props, ...(connection === undefined ? {} : { [CONNECTION_INPUT]: connection }), ...(name === undefined ? {} : { [NAME_INPUT]: name }) };
}

/** Why a `connection` value is refused, or undefined when it is a valid name (or left out). */
function connectionProblem(value: unknown): string | undefined {
  if (value === undefined || isConnectionName(value)) return undefined;
  const shown = typeof value === "string" ? JSON.stringify(value) : typeof value;
  return (
    `connection must be the name of a kasm.Connection: lower-case letters, digits and hyphens, starting with a letter ` +
    `(such as "prod", whose settings are ${connectionNamespace("prod")}:baseUrl ... or ${connectionEnvPrefix("prod")}BASE_URL ...), not ${shown}`
  );
}

/**
 * The same providers, each aware of the `connection` input (see the module comment). Each takes
 * the properties as the engine sends them (the connection and the resource's name among them),
 * so each is a `KindProvider` of the wire's `Props`.
 */
export function acrossConnections<P extends Record<string, Kind>>(providers: P): { readonly [K in keyof P]: HostProvider } {
  const wrapped: Record<string, HostProvider> = {};
  for (const [kind, provider] of Object.entries(providers)) {
    const secrets = provider.manifest.secrets ?? [];
    wrapped[kind] = {
      async check(olds, news) {
        const connection = news[CONNECTION_INPUT];
        const problem = connectionProblem(connection) ?? (isConnectionName(connection) ? connectionConfigurationProblem(connection) : undefined);
        const context = contextOf(news, connectionOf(news));
        const checked = await provider.check(withoutHiddenInputs(olds), withoutHiddenInputs(news), context);
        if (problem !== undefined)
          return {
            failures: [...(checked.failures ?? []).map((failure) => withoutSecretProperty(secrets, failure)), { property: CONNECTION_INPUT, reason: problem }],
          };
        const failures = await failuresBeforePlan(
          kind,
          secrets,
          withoutHiddenInputs(olds),
          { ...checked, inputs: withoutHiddenInputs((checked.inputs ?? news) as Props) },
          context,
        );
        // The installation's read failed: its failure alone, as the kind's inputs cannot be planned.
        if (failures.length > 0 && !checked.failures?.length) return { failures };
        return { ...checked, ...(checked.failures ? { failures } : {}), inputs: withWhereAndName(checked.inputs, connectionOf(news), news) };
      },
      async diff(id, olds, news): Promise<pulumi.dynamic.DiffResult> {
        const before = connectionOf(olds);
        const after = connectionOf(news);
        const result = await provider.diff(id, withoutHiddenInputs(olds), withoutHiddenInputs(news), contextOf(news, before));
        // A state the native provider wrote (a stack moved back to this form, aliased to the native type token) has no
        // serialized provider, without which the host can neither refresh nor delete: an update writes it, sending nothing.
        if (isStateOfAnotherProvider(olds) && !result.changes) return { ...result, changes: true };
        if (before === after) return result;
        // Another installation holds another object: create it there, then delete the old one.
        return { ...result, changes: true, replaces: [...new Set([...(result.replaces ?? []), CONNECTION_INPUT])] };
      },
      async create(inputs) {
        const connection = connectionOf(inputs);
        const result = await provider
          .create(withoutHiddenInputs(inputs), contextOf(inputs, connection))
          .catch((error: unknown) => keepingWhereItLives(error, inputs, connection));
        return { ...result, outs: withWhereAndName(result.outs, connection, inputs) };
      },
      async read(id, props) {
        const connection = connectionOf(props);
        const result = await provider.read(id, withoutHiddenInputs(props), contextOf(props, connection));
        // A gone object stays gone (an empty id and no properties).
        if (!result.id) return result;
        return { ...result, props: withWhereAndName(result.props, connection, props), inputs: withWhereAndName(result.inputs, connection, props) };
      },
      async update(id, olds, news) {
        const connection = connectionOf(news);
        // Only the state's own provider to write (see diff): Kasm holds the object as declared.
        if (
          isStateOfAnotherProvider(olds) &&
          !(await provider.diff(id, withoutHiddenInputs(olds), withoutHiddenInputs(news), contextOf(news, connection))).changes
        )
          return { outs: withWhereAndName(withoutHiddenInputs(olds), connection, news) };
        const result = await provider
          .update(id, withoutHiddenInputs(olds), withoutHiddenInputs(news), contextOf(news, connection))
          .catch((error: unknown) => keepingWhereItLives(error, news, connection));
        return { ...result, outs: withWhereAndName(result.outs, connection, news) };
      },
      async delete(id, props) {
        await provider.delete(id, withoutHiddenInputs(props), contextOf(props, connectionOf(props)));
      },
    };
  }
  return wrapped as { readonly [K in keyof P]: HostProvider };
}

// --- before a change is planned: how check ends, and the one read of the installation -------------------

/*
 * How a host's `check` ends, in either host (Pulumi's dynamic-provider host through
 * {@link acrossConnections} above, the native provider through `native/lifecycle.ts`): the kind's
 * failures as the engine may print them, and, when there are none and the inputs change anything,
 * the one read of the installation before a change (below). The hosts hand it the kind's own
 * properties: what only a host adds (the dynamic host's hidden inputs) is stripped before.
 */

/**
 * The failures a host's `check` reports for the kind's check result: the kind's own, each as the
 * engine may print it ({@link withoutSecretProperty}); or, when there are none and the checked
 * inputs change anything, the failure of the installation's one read before a change, so that a
 * change the installation could not take fails in the preview, and a preview without change
 * sends no request.
 *
 * @param kind The resource's kind.
 * @param olds The state's inputs (none for a create), the kind's own properties.
 * @param checked The kind's check result, its `inputs` set.
 * @param context The method's context, whose connection is read.
 */
export async function failuresBeforePlan(
  kind: string,
  secrets: readonly string[],
  olds: Props,
  checked: pulumi.dynamic.CheckResult,
  context: KindContext,
): Promise<pulumi.dynamic.CheckFailure[]> {
  const failures = (checked.failures ?? []).map((failure) => withoutSecretProperty(secrets, failure));
  if (failures.length > 0 || !changes(kind, olds, (checked.inputs ?? {}) as Props)) return failures;
  const unreachable = await installationProblem(context);
  return unreachable === undefined ? [] : [{ property: "", reason: unreachable }];
}

/**
 * A check failure as the engine may print it: one about a secret input names no property (its
 * reason names it), because the Pulumi CLI prints the property's value beside the reason, which
 * for a secret is the secret itself (`property password value {&{{...}}} has a problem: ...`).
 */
export function withoutSecretProperty(secrets: readonly string[], failure: pulumi.dynamic.CheckFailure): pulumi.dynamic.CheckFailure {
  return secrets.includes(failure.property.split(/[.[]/)[0]) ? { property: "", reason: failure.reason } : failure;
}

/**
 * Whether checked inputs of `kind` differ from the previous ones (a create has none): only then is
 * the installation read before the plan, so that a preview without change sends no request. A
 * note an earlier version's check left in the state is not a change (see `PREVIEW_NOTES`).
 */
function changes(kind: string, olds: Props, checked: Props): boolean {
  return !isDeepStrictEqual(withoutPreviewNotes(kind, olds), withoutPreviewNotes(kind, checked));
}

/*
 * One read of each installation before a change to it is planned: so that `pulumi preview` in a
 * pull request fails on what it could have seen, instead of the `up` failing after other
 * resources were applied.
 *
 * The read finds wrong credentials (401), an unreachable or wrong address, a health wait that runs
 * out, and the wrong vocabulary (`apiNames`): it asks for an operation whose name only the
 * configured vocabulary has, so an installation that speaks the other one answers 404, which the
 * client reports as a vocabulary mismatch naming the connection's setting. With the product
 * vocabulary that read is `get_groups`, whose answer also gives `UserSet` the group names to check
 * its rows against; with the documentation's vocabulary it is `get_ws_status` with no session,
 * which a Kasm that speaks it refuses with 400 (unknown session) and changes nothing.
 *
 * It is made at most once per installation per deployment (per host process), only from `check`
 * of a resource whose inputs change (a create, or an update): a preview without change sends no
 * request. It is never a write. An answer that shows nothing wrong with the settings (the key
 * lacks the permission for the read, a 5xx, a 400) counts as a pass: the permissions pack judges
 * permissions, and a passing check must never block an `up` that would work.
 *
 * `kasm:checkBeforeChanges` (or `KASM_CHECK_BEFORE_CHANGES`; a named connection's own
 * `kasm-<name>:checkBeforeChanges`) set to `false` turns it off: the preview then sends nothing.
 */

/** What the one read of an installation showed. */
export interface InstallationSurvey {
  /** The installation's groups, when its vocabulary can list them (the product's); else undefined. */
  readonly groups?: readonly GroupRecord[];
}

/** The settings' errors: what the read is for. Any other outcome passes. */
const SETTINGS_ERRORS = [
  KasmConfigurationError,
  KasmAuthenticationError,
  KasmTransportError,
  KasmHealthCheckError,
  KasmMissingOperationError,
  KasmUnknownPathError,
  KasmVocabularyError,
];

/**
 * The survey of the current connection's installation: read once per process (the host's
 * runtime remembers it, see `InstallationMemory`), then shared.
 * Rejects with the client's error when the read shows the settings are wrong. Undefined when
 * `checkBeforeChanges` is off.
 */
export function surveyInstallation(context: KindContext): Promise<InstallationSurvey> | undefined {
  if (!checksBeforeChanges(context)) return undefined;
  const memory = context.memory();
  if (memory.survey === undefined) {
    memory.survey = readInstallation(context);
    // Not awaited here: a caller that never looks must not leave a rejection unhandled.
    memory.survey.catch(() => undefined);
  }
  return memory.survey;
}

/**
 * Why the current connection's installation cannot take a change, in words for a check failure,
 * or undefined when its one read showed nothing wrong (or checks are off).
 */
export async function installationProblem(context: KindContext): Promise<string | undefined> {
  try {
    await surveyInstallation(context);
    return undefined;
  } catch (error) {
    return describe(error, context.settingNames);
  }
}

/**
 * Whether a change to the connection's installation is checked with reads first: its
 * `checkBeforeChanges` setting, on unless `false`.
 */
export function checksBeforeChanges(context: KindContext): boolean {
  return context.setting("checkBeforeChanges")?.trim().toLowerCase() !== "false";
}

/** The one read (see the module comment). */
async function readInstallation(context: KindContext): Promise<InstallationSurvey> {
  const client = context.client();
  try {
    // The listing the checks before Group creates share: their lookups cost nothing more.
    if (client.transport.supports("get_groups")) return { groups: await client.keys.groups() };
    // No session has an empty id: a Kasm that speaks the documentation's names refuses it (400).
    await client.transport.call("get_ws_status", {}, WsStatus);
    return {};
  } catch (error) {
    if (SETTINGS_ERRORS.some((type) => error instanceof type)) throw error;
    return {};
  }
}

/** The failure's words: what the read found, and how to plan without it. */
function describe(error: unknown, names: SettingNames): string {
  const message = error instanceof Error ? error.message : String(error);
  const where =
    names.provider !== undefined
      ? `the installation of provider \`${names.provider}\``
      : names.connection === undefined
        ? "the installation `kasm:` configures"
        : `the installation of connection "${names.connection}"`;
  return (
    `before planning this change, one read of ${where} failed, so nothing would apply there: ${message} ` +
    `(This read is made once per installation and deployment; ${howToSet(names, "checkBeforeChanges", "false")} turns it off.)`
  );
}

/** How long a lookup that found no object stands for the create that follows it: as long as a refresh's snapshot of users serves. */
export const ABSENCE_STANDS_MS = 30_000;

/** An absence's key in the connection's `InstallationMemory.absences`. */
const absenceKey = (kind: string, key: string) => JSON.stringify([kind, key]);

/**
 * The lookups by natural key that check shares with the create after it. The keys `check` looked
 * up and found no object for are remembered, by kind and key, with when, in the connection's
 * `InstallationMemory.absences` (the host's runtime keeps it): the create that follows in the same
 * process (an `up`) does not look the key up again, so that reading before a change costs a
 * create no request more. The create's own lookup exists to keep the client's recovery after a
 * server error from taking an object made outside Pulumi for its own (`findFirst`); an object
 * made in the seconds between the check's lookup and the create is as unlikely as one made
 * between that lookup and the create, and Kasm refuses a duplicate create either way. A key is
 * forgotten once its create uses it, or after {@link ABSENCE_STANDS_MS}.
 */
export const lookups = {
  /**
   * When a lookup about to be asked reads Kasm, at the latest: now, or, when the answer may come
   * from a listing the deployment's lookups share (`KeyLookups` in api/client.ts), when the
   * oldest of them was read. A finding counts from then, so that an absence read from a listing
   * stands no longer than one read by a lookup of its own.
   */
  askedAt(context: KindContext): number {
    const client = context.client();
    return Math.min(Date.now(), client.keys.listedSince() ?? Infinity, client.usernames.listedSince() ?? Infinity);
  },
  /** Check found no object of `kind` with this key, in what Kasm answered at `at` (default: now). */
  rememberAbsent(context: KindContext, kind: string, key: string, at: number = Date.now()): void {
    context.memory().absences.set(absenceKey(kind, key), at);
  },
  /** Whether check found no such object within {@link ABSENCE_STANDS_MS}; the answer is given once. */
  absentLately(context: KindContext, kind: string, key: string): boolean {
    const { absences } = context.memory();
    const at = absences.get(absenceKey(kind, key));
    absences.delete(absenceKey(kind, key));
    return at !== undefined && Date.now() - at < ABSENCE_STANDS_MS;
  },
};

// --- the client a step is handed: what its kind declares, and no more -----------------------------------

/*
 * The client a lifecycle step of a kind is handed refuses what the kind did not declare for it.
 *
 * A kind declares once, beside its provider, what each step calls (`provider/resources/<kind>.calls.ts`,
 * see `KindCalls` in permissions/planned-calls.ts), and the permission policies judge API keys by
 * that declaration (`KIND_ROWS`). So that a provider cannot call more than it declares,
 * {@link withDeclaredCalls} hands each step (create, read, update, delete) a context whose client
 * is a view (`KasmClient.allowingOnly`) that allows the operations the declaration, evaluated for
 * the resource's properties, lists for that step, and those {@link UNLISTED_CALLS} allows beside
 * them; any other is refused with a {@link KasmUndeclaredCallError} before a request is sent.
 * Whether a call is made under the circumstances the declaration gives is not checked here: the
 * consistency test of the policies does that (`test/policy/consistency.test.ts`).
 *
 * `check` and `diff` are no steps of a declaration: they keep the client as it is. `diff` calls
 * nothing; `check` calls nothing either, but for the reads made before changes are planned, which
 * no key's verdict depends on: the installation check's one read (the section above), and
 * the lookups that name an existing object in the preview (`take-over.ts`, and the natural-key
 * lookups before creates, whose listings the creates list).
 */

/**
 * An operation a step may call though its kind's declaration does not list it, on purpose: in
 * every step that lists `beside` (and of `kind` and `step` only, when they are given).
 */
interface UnlistedCall {
  readonly operation: OperationName;
  readonly beside?: OperationName;
  readonly kind?: KasmKind;
  readonly step?: LifecycleStep;
}

/**
 * Every call a step may make that its kind's declaration leaves out, and why (the same as "What
 * the rows leave out, on purpose" in permissions/kind-table.ts). Nothing else is allowed beside the
 * declarations.
 */
export const UNLISTED_CALLS: readonly UnlistedCall[] = [
  // The lookups the client makes only after a transient failure of a create, to adopt what the
  // failed attempt may have committed (`createOnce` in provider/api/retry.ts). Each needs the
  // View permission of the family whose Create the create needs, which dependency rule 1 requires.
  { beside: "create_user", operation: "get_user" },
  { beside: "create_group", operation: "get_groups" },
  { beside: "add_images_group", operation: "get_images_group" },
  { beside: "create_image", operation: "get_images" },
  { beside: "create_registry", operation: "get_registries" },
  { beside: "create_staging_config", operation: "get_staging_configs" },
  { beside: "create_cast_config", operation: "get_cast_configs" },
  { beside: "create_egress_provider", operation: "get_egress_providers" },
  { beside: "create_egress_gateway", operation: "get_egress_gateways" },
  { beside: "create_egress_provider_mapping", operation: "get_egress_provider_mapping" },
  { beside: "create_egress_credential", operation: "get_egress_credentials" },
  // A user read serves from get_users pages, shared by the reads that arrive together, instead of
  // a get_user each (`UserReads` in provider/api/client.ts; and the username lookups before User creates,
  // `UsernameLookups` there too). The spec gives get_users the permissions of get_user and the same
  // record: the get_user of a declaration stands for both. (The shared pages are read by the
  // installation's own client; such a read is refused, at its start, as its get_user would be.)
  { beside: "get_user", operation: "get_users" },
  // A released Kasm (kasm:apiNames product) reads casting configs: a CastConfig's refresh reads
  // its config, and its create looks the key up first, which the documentation's vocabulary
  // cannot. Both need Casting View, which every key the declaration lets create, update or delete
  // a config holds in effect (Casting Create, Modify and Delete each need it by the dependency rules).
  { kind: "CastConfig", step: "read", operation: "get_cast_config" },
  { kind: "CastConfig", step: "create", operation: "get_cast_configs" },
  // An update that changes autoLoginWs reads the record first, whose names show the vocabulary the
  // installation speaks, so that a mismatch fails before anything is written: Users View, which
  // update_user_attributes' Users Modify needs by the dependency rules.
  { kind: "UserAttributes", step: "update", operation: "get_attributes" },
  // A UserSet's destroy first learns which of its users are still in Kasm, from get_users pages:
  // Users View, which delete_user's Users Delete needs by the dependency rules.
  { kind: "UserSet", step: "delete", operation: "get_users" },
  // A released Kasm lists its groups for the ids of groups the rows name that no user shows, before
  // a UserSet adds an existing user to one: Groups View, which add_user_group's Groups Modify needs.
  { kind: "UserSet", beside: "add_user_group", operation: "get_groups" },
];

/** What the declarations are evaluated with: no fact known, so that each lists every call it may make. */
const KNOWING_NOTHING = knowledgeFromFacts({});

/**
 * The operations a step of a resource may call: those its kind's declaration lists for the step,
 * for these properties, and those {@link UNLISTED_CALLS} allows beside them.
 */
export function allowedOperations(calls: KindCalls, step: LifecycleStep, props: Props): ReadonlySet<OperationName> {
  const listed = new Set(calls.steps(props, KNOWING_NOTHING)[step].map((call) => call.operation));
  const allowed = new Set(listed);
  for (const unlisted of UNLISTED_CALLS) {
    const applies =
      (unlisted.beside === undefined || listed.has(unlisted.beside)) &&
      (unlisted.kind === undefined || unlisted.kind === calls.kind) &&
      (unlisted.step === undefined || unlisted.step === step);
    if (applies) allowed.add(unlisted.operation);
  }
  return allowed;
}

/** `context` for one step: its clients allow only `allowed`, refusing any other operation for `kind`'s `step`. */
function contextAllowing(context: KindContext, kind: KasmKind, step: LifecycleStep, allowed: ReadonlySet<OperationName>): KindContext {
  const calls: AllowedCalls = {
    allows: (operation) => allowed.has(operation),
    refusal: (operation) => new KasmUndeclaredCallError(kind, step, operation),
  };
  // One view per step, made when the step first asks for its client.
  let view: KasmClient | undefined;
  return {
    ...context,
    client: () => (view ??= context.client().allowingOnly(calls)),
    existingClient: () => {
      const client = context.existingClient();
      return client === undefined ? undefined : (view ??= client.allowingOnly(calls));
    },
  };
}

/**
 * The properties an update is judged by, as a policy sees them: the new inputs, and the outputs
 * the state holds (what is not an input).
 */
function updateProps(olds: Props, news: Props, inputNames: ReadonlySet<string>): Props {
  const outputs = Object.fromEntries(Object.entries(olds).filter(([name]) => !inputNames.has(name)));
  return { ...outputs, ...news };
}

/**
 * `kind` with each lifecycle step handed a client that allows only what its manifest's calls
 * declaration lists for it (see the module comment). `check`, `diff` and any other member are kept
 * as they are. `defineKind` applies it to every kind it builds; a bulk kind, which writes its
 * provider by hand, applies it itself.
 */
export function withDeclaredCalls<Inputs extends object, State extends object, Outputs extends object, K extends Kind<Inputs, State, Outputs>>(kind: K): K {
  const { calls, fields } = kind.manifest;
  const inputs = new Set(Object.keys(fields));
  const stepContext = (context: KindContext, step: LifecycleStep, props: object) =>
    contextAllowing(context, calls.kind, step, allowedOperations(calls, step, props as Props));
  return {
    ...kind,
    create: (news: Inputs, context: KindContext) => kind.create(news, stepContext(context, "create", news)),
    read: (id: string, props: State, context: KindContext) => kind.read(id, props, stepContext(context, "read", props)),
    update: (id: string, olds: State, news: Inputs, context: KindContext) =>
      kind.update(id, olds, news, stepContext(context, "update", updateProps(olds as Props, news as Props, inputs))),
    delete: (id: string, props: State, context: KindContext) => kind.delete(id, props, stepContext(context, "delete", props)),
  };
}
