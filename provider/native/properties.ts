/**
 * Properties between the engine's gRPC structs and the kinds' plain objects.
 *
 * The native provider answers Configure with `acceptSecrets`, so the engine sends secret values
 * wrapped (`{<sig>: <secret sig>, value}`) and, unlike with the dynamic-provider host, does not
 * mark outputs secret again by itself: what comes in wrapped is unwrapped for the kinds (which
 * know nothing of secrets), and every property that was secret, or that the catalogue says holds
 * a secret, leaves wrapped. Values not known yet (preview) travel as Pulumi's string placeholder
 * both ways, as the kinds already expect from the dynamic-provider host.
 */
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import type { Props } from "../resources/framework/types";

/**
 * The wire protocol's marker of a secret value (Pulumi's `specialSigKey` and `specialSecretSig`,
 * sdk/go/common/resource/properties.go), written here rather than imported from
 * `@pulumi/pulumi/runtime/rpc`: that module loads Pulumi's Node.js runtime (its tracing and version
 * modules, some 130 modules), which the plugin does not otherwise need. scripts/compat-internals.ts
 * holds them to Pulumi's.
 */
export const specialSigKey = "4dabf18193072939515e22adb298388d";
export const specialSecretSig = "1b47061264138c4ac30d75fd1eb44270";

/** Whether a value is a secret as the engine sends it: `{<specialSigKey>: <specialSecretSig>, value}`. */
function isRpcSecret(value: unknown): value is { readonly value: unknown } {
  return typeof value === "object" && value !== null && (value as Record<string, unknown>)[specialSigKey] === specialSecretSig;
}

/** Properties as the kinds take them, and the names of those that arrived secret. */
export interface Unwrapped {
  readonly props: Props;
  readonly secrets: ReadonlySet<string>;
}

/** A value with every secret wrapper inside it removed, and whether there was one. */
function unwrapValue(value: unknown): { readonly value: unknown; readonly secret: boolean } {
  if (isRpcSecret(value)) return { value: unwrapValue(value.value).value, secret: true };
  if (Array.isArray(value)) {
    const items = value.map(unwrapValue);
    return { value: items.map((item) => item.value), secret: items.some((item) => item.secret) };
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([key, item]) => [key, unwrapValue(item)] as const);
    return { value: Object.fromEntries(entries.map(([key, item]) => [key, item.value])), secret: entries.some(([, item]) => item.secret) };
  }
  return { value, secret: false };
}

/**
 * The properties of a request's struct, secrets unwrapped. A property with a secret anywhere
 * inside is secret as a whole: the kinds' secrets are whole properties.
 */
export function fromStruct(struct: structproto.Struct | undefined): Unwrapped {
  const props: Props = {};
  const secrets = new Set<string>();
  for (const [key, raw] of Object.entries(struct?.toJavaScript() ?? {})) {
    const { value, secret } = unwrapValue(raw);
    props[key] = value;
    if (secret) secrets.add(key);
  }
  return { props, secrets };
}

/** The names among `props` that leave secret: those that arrived secret, and the kind's secret inputs (`secretInputs`, from its field declarations). */
export function secretNames(secretInputs: readonly string[], props: Props, arrivedSecret: Iterable<string>): Set<string> {
  const names = new Set(arrivedSecret);
  for (const key of Object.keys(props)) if (secretInputs.includes(key)) names.add(key);
  return names;
}

/**
 * `value` wrapped as a secret, as the engine reads one: for a secret deeper than a whole property
 * (a field of each record of a lookup's list), placed where it is before {@link toStruct}.
 */
export function secretValue(value: unknown): { readonly [specialSigKey]: string; readonly value: unknown } {
  return { [specialSigKey]: specialSecretSig, value };
}

/**
 * A struct of `props` for the engine, each property named in `secrets` wrapped as a secret.
 * Undefined values are left out (a struct has no such value).
 */
export function toStruct(props: Props | undefined, secrets: ReadonlySet<string> = new Set()): structproto.Struct {
  const plain: Record<string, structproto.JavaScriptValue> = {};
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined) continue;
    const json = JSON.parse(JSON.stringify(value)) as structproto.JavaScriptValue;
    plain[key] = secrets.has(key) ? (secretValue(json) as structproto.JavaScriptValue) : json;
  }
  return structproto.Struct.fromJavaScript(plain);
}
