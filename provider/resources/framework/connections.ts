/**
 * The `connection` input every kind takes: which installation holds the object.
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
import type * as pulumi from "@pulumi/pulumi";
import { connectionEnvPrefix, connectionNamespace, isConnectionName } from "../../../permissions/connections";
import { connectionConfigurationProblem, contextFor } from "../../runtime";
import { failuresBeforePlan, withoutSecretProperty } from "./before-plan";
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
