/**
 * Property values as they travel between the program, the engine and the providers: plain JSON
 * plus Pulumi's special objects (secrets, resource references, output values) and the unknown
 * sentinel of previews. The engine keeps values in this "wire form" and converts at its edges.
 */

import { UNKNOWN } from "../permissions/planned-calls";
/** Properties of a resource: a JSON object in wire form. */
export type Props = Record<string, unknown>;

/** The key that marks a special object (`{ [SIG]: <kind sig>, ... }`). */
export const SIG = "4dabf18193072939515e22adb298388d";
/** The signature of a secret: `{ [SIG]: SECRET_SIG, value }` (or `ciphertext` in the state file). */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** The signature of a resource reference: `{ [SIG]: RESOURCE_SIG, urn, id? }`. */
export const RESOURCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";
/** The signature of an output value: `{ [SIG]: OUTPUT_SIG, value?, secret?, dependencies? }`. */
export const OUTPUT_SIG = "d0e6a833031e9bbcd3f4e8bde6ca49a4";
/** The value of a property not known during a preview (the permission catalogue's). */
export { UNKNOWN };

function sigOf(value: unknown): unknown {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Props)[SIG] : undefined;
}

/** Whether `value` is a secret wrapper. */
export function isSecret(value: unknown): value is { value: unknown } {
  return sigOf(value) === SECRET_SIG;
}

/** Wrap a value as a secret (once). */
export function secret(value: unknown): unknown {
  return isSecret(value) ? value : { [SIG]: SECRET_SIG, value };
}

/** Whether a value is, or holds anywhere inside it, a secret. */
export function containsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (sigOf(value) === OUTPUT_SIG) return (value as Props).secret === true || containsSecret((value as Props).value);
  if (Array.isArray(value)) return value.some(containsSecret);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsSecret);
  return false;
}

/** Apply `fn` to every value of a JSON tree, children first. */
function mapDeep(value: unknown, fn: (v: unknown) => unknown): unknown {
  if (Array.isArray(value)) return fn(value.map((v) => mapDeep(v, fn)));
  if (value !== null && typeof value === "object") return fn(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapDeep(v, fn)])));
  return fn(value);
}

/**
 * What a provider that does not accept secrets or resource references receives (the dynamic-provider
 * host answers Configure with acceptSecrets=false): secrets unwrapped, output values reduced to their
 * value (or the unknown sentinel), resource references reduced to their id (custom) or urn
 * (component), as the engine downgrades them.
 */
export function plain(value: unknown): unknown {
  return mapDeep(value, (v) => {
    switch (sigOf(v)) {
      case SECRET_SIG:
        return (v as Props).value;
      case OUTPUT_SIG:
        return "value" in (v as Props) ? (v as Props).value : UNKNOWN;
      case RESOURCE_SIG: {
        const ref = v as Props;
        return ref.id === undefined || ref.id === "" ? ref.urn : ref.id;
      }
      default:
        return v;
    }
  });
}

/** {@link plain} over a property map. */
export function plainProps(props: Props): Props {
  return plain(props) as Props;
}

/** The top-level keys whose values hold a secret: the engine keeps outputs of these names secret. */
export function secretKeys(props: Props): string[] {
  return Object.keys(props).filter((key) => containsSecret(props[key]));
}

/** Mark the values of `keys` in `props` secret (top-level, as the engine does for outputs). */
export function markSecret(props: Props, keys: Iterable<string>): Props {
  const result = { ...props };
  for (const key of keys) if (key in result && result[key] !== undefined) result[key] = secret(result[key]);
  return result;
}

/** Whether a value is, or holds, the unknown sentinel. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (sigOf(value) === OUTPUT_SIG) return !("value" in (value as Props)) || containsUnknown((value as Props).value);
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** Drop the engine-internal properties (`__provider`, ...), which the engine never shows to policies. */
export function withoutInternal(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([key]) => !key.startsWith("__")));
}

/** JSON equality of two property maps after {@link plain} (secretness does not count as a change). */
export function samePlain(a: unknown, b: unknown): boolean {
  return JSON.stringify(plain(a)) === JSON.stringify(plain(b));
}

/** The top-level keys whose plain values differ between two property maps (internal keys left out). */
export function changedKeys(before: Props, after: Props): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => !key.startsWith("__") && !samePlain(before[key] ?? null, after[key] ?? null)).sort();
}

/**
 * `ignoreChanges`: `news` with each named property path (`a`, `a.b`, `a[0]`, `*` for all) set back
 * to its value in `olds`, or removed where `olds` has none, as the engine does before Check.
 */
export function keepOldValues(news: Props, olds: Props, paths: readonly string[]): Props {
  if (paths.length === 0) return news;
  if (paths.includes("*")) return structuredClone(olds);
  const result = structuredClone(news);
  for (const path of paths) {
    const steps = path.split(/\.|\[(\d+)\]/).filter((step) => step !== undefined && step !== "");
    let from: any = olds;
    let to: any = result;
    for (let i = 0; i < steps.length - 1 && to !== undefined; i++) {
      from = from?.[steps[i]];
      to = to[steps[i]];
    }
    if (to === undefined || to === null || typeof to !== "object") continue;
    const last = steps[steps.length - 1];
    if (from !== undefined && from !== null && last in from) to[last] = structuredClone(from[last]);
    else delete to[last];
  }
  return result;
}
