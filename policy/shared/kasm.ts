/**
 * What both policy packs share: recognising Kasm resources by type token (the SDK's dynamic
 * resources and the native provider's alike), the installation a resource lives on, reading their
 * properties without tripping over values not known during preview, saying "could not decide"
 * the way Pulumi's policy SDK does, and naming resources in messages.
 *
 * Messages never quote a property's value. The engine hands policies secrets unwrapped, with
 * nothing to tell them from other values, so the only safe rule is to name properties, never
 * print them. Properties whose names start with `__` (such as `__provider`) are never looked at.
 */
import { isUnknownValue, kindAndFormOfTypeToken, kindOfTypeToken, NATIVE_PROVIDER_TYPE, UNKNOWN_SENTINELS, type KasmKind } from "../../permissions";

export { isUnknownValue, kindOfTypeToken, type KasmKind };

/** Properties as a policy reads them: plain values, some of which may be unknown placeholders. */
export type RawProps = Readonly<Record<string, unknown>>;

/** The key under which @pulumi/policy's unknown-checking proxy hands out the object it wraps. */
const PROXY_TARGET = "__getSpecialProxyTarget";

/**
 * The plain properties behind what a policy receives. @pulumi/policy wraps properties in a proxy
 * that throws on reading an unknown value; this returns the object it wraps (or `props` itself
 * when it is not wrapped), so that a policy can see which values are unknown and decide the rest.
 * `__`-prefixed properties are left out.
 */
export function rawProps(props: unknown): RawProps {
  if (props === null || typeof props !== "object") return {};
  let target: unknown;
  try {
    target = (props as Record<string, unknown>)[PROXY_TARGET];
  } catch {
    target = undefined;
  }
  const plain = (target && typeof target === "object" ? target : props) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(plain).filter(([key]) => !key.startsWith("__")));
}

/** Whether a value, or any value inside it, is not known yet. */
export function containsUnknown(value: unknown): boolean {
  if (isUnknownValue(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** The error class @pulumi/policy turns into an advisory "can't run policy ... during preview: <message>". */
const PolicySdk = require("@pulumi/policy") as { UnknownValueError: new (sentinel: string, path: string[]) => Error };

/** The error a policy throws when it cannot decide: @pulumi/policy reports it as advisory, whatever the policy's level. */
export function undecidable(message: string): Error {
  const error = new PolicySdk.UnknownValueError(UNKNOWN_SENTINELS[2], []);
  error.message = message;
  return error;
}

/** Whether an error is the one {@link undecidable} makes (or one @pulumi/policy's proxy threw). */
export function isUndecidable(error: unknown): boolean {
  return error instanceof PolicySdk.UnknownValueError;
}

/** How messages name a resource: `CastConfig 'kiosk'`. */
export function label(kind: KasmKind, name: string): string {
  return `${kind} '${name}'`;
}

/** The Kasm kind of a resource as a policy receives it, in either form (see `KasmResourceForm`), or undefined when it is not a Kasm resource. */
export function kindOf(resource: { readonly type: string }): KasmKind | undefined {
  return kindOfTypeToken(resource.type);
}

/** A list of words joined for a sentence: `a, b and c`. */
export function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** Quote each name: `'Users View', 'Users Modify'`. */
export function quoted(names: Iterable<string>): string {
  return [...names].map((n) => `'${n}'`).join(", ");
}

/** The provider of a resource as @pulumi/policy hands it over (`PolicyProviderResource`): only what is read here. */
export interface ProviderOfResource {
  /** The provider resource's type token: `pulumi:providers:kasm` for the native provider. */
  readonly type: string;
  /** The provider resource's name: an explicit provider's name, or the engine's `default...` one. */
  readonly name: string;
}

/**
 * A resource as policies receive it (`ResourceValidationArgs` or a stack's `PolicyResource`),
 * with what says which installation its object lives on. A provider's `props` are deliberately
 * not part of it: they hold its API key secret unwrapped.
 */
export interface PlacedResource {
  readonly type: string;
  readonly props: unknown;
  readonly provider?: ProviderOfResource;
}

/**
 * Whether a provider is one the engine made because the program named none: it names them
 * `default`, or `default_<version>` (the rule of Pulumi's own `providers.IsDefaultProvider`, which
 * takes every name starting with `default`, narrowed here so that an explicit `defaults-prod` is not one).
 */
function isDefaultProvider(provider: ProviderOfResource): boolean {
  return provider.name === "default" || provider.name.startsWith("default_");
}

/**
 * The connection a resource's object lives on, or undefined for the default installation (`kasm:`).
 * A dynamic resource names it in its `connection` input (the name given to `kasm.Connection`); a
 * native one (`kasm:index:<Kind>`) has no such input: its explicit provider is its installation,
 * and that provider's resource name is the connection's name (a default provider is the default
 * installation). Rules that count or compare objects do so within one installation.
 */
export function connectionOf(resource: PlacedResource): string | undefined {
  if (kindAndFormOfTypeToken(resource.type)?.form === "native") {
    const provider = resource.provider;
    return provider !== undefined && provider.type === NATIVE_PROVIDER_TYPE && !isDefaultProvider(provider) ? provider.name : undefined;
  }
  const props = rawProps(resource.props);
  return typeof props.connection === "string" ? props.connection : undefined;
}

/** How a message names a connection: `the installation of connection 'prod'`, or `the default installation (kasm:)`. */
export function installationWords(connection: string | undefined): string {
  return connection === undefined ? "the default installation (kasm:)" : `the installation of connection '${connection}'`;
}
