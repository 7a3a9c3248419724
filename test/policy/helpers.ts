/**
 * Helpers for the policy tests: resources and args shaped as @pulumi/policy hands them to
 * policies, and direct calls that collect violations (and the advisory "could not decide").
 */
import type {
  ReportViolation,
  ResourceValidationPolicy,
  StackValidationPolicy,
  PolicyResource,
  ResourceValidationArgs,
  StackValidationArgs,
} from "@pulumi/policy";
import { kasmTypeToken, NATIVE_PROVIDER_TYPE, UNKNOWN_SENTINELS, type KasmKind, type KasmResourceForm } from "../../permissions";
import { isUndecidable } from "../../policy/shared/kasm";

/** The engine's placeholder for a string not known during preview. */
export const UNKNOWN = UNKNOWN_SENTINELS[2];
/** The placeholder for a boolean not known during preview. */
export const UNKNOWN_BOOL = UNKNOWN_SENTINELS[0];
/** The placeholder for an array not known during preview. */
export const UNKNOWN_ARRAY = UNKNOWN_SENTINELS[3];

/** Ids of the target Kasm in the fixtures (32 hex digits). */
export const IDS = {
  allUsers: "a11a11a11a11a11a11a11a11a11a11a1",
  administrators: "ad000000000000000000000000000001",
  devs: "de000000000000000000000000000001",
  ops: "0b000000000000000000000000000001",
  admin1: "ad000000000000000000000000000a01",
  plain1: "00000000000000000000000000000101",
  plain2: "00000000000000000000000000000102",
  zone: "20000000000000000000000000000001",
  image1: "1a000000000000000000000000000001",
  image2: "1a000000000000000000000000000002",
  server1: "5e000000000000000000000000000001",
  server2: "5e000000000000000000000000000002",
} as const;

/** A resource of the stack: its kind, name, props, and which props come from which other resource. */
export interface FixtureResource {
  readonly kind: KasmKind | "Other";
  readonly name: string;
  readonly props: Record<string, unknown>;
  /** property -> names of the resources its value comes from. */
  readonly from?: Record<string, string[]>;
  /** Its form: the SDK's dynamic resource when left out, or the native provider's (`kasm:index:<Kind>`). */
  readonly form?: KasmResourceForm;
  /** Its explicit native provider (`pulumi:providers:kasm`); a native resource without one runs on the default provider. */
  readonly provider?: FixtureProvider;
}

/** An explicit provider resource of the native provider, as the engine describes it to policies. */
export interface FixtureProvider {
  readonly name: string;
  /** Its inputs, as the engine hands them over: secrets unwrapped. */
  readonly props?: Record<string, unknown>;
}

/** The type token of a fixture resource. */
function typeOf(kind: KasmKind | "Other", form?: KasmResourceForm): string {
  return kind === "Other" ? "random:index/randomPassword:RandomPassword" : kasmTypeToken(kind, form);
}

export function urnOf(kind: string, name: string, form?: KasmResourceForm): string {
  return `urn:pulumi:ci::kasm-app::${typeOf(kind as KasmKind | "Other", form)}::${name}`;
}

/**
 * The provider of a fixture resource as @pulumi/policy hands it over (`PolicyProviderResource`):
 * its explicit provider, the engine's default one for a native resource without one, nothing for
 * a dynamic resource (whose installation is its `connection` input).
 */
export function providerOf(r: FixtureResource): { type: string; name: string; urn: string; props: Record<string, unknown> } | undefined {
  if (r.form !== "native" && r.provider === undefined) return undefined;
  const name = r.provider?.name ?? "default";
  return { type: NATIVE_PROVIDER_TYPE, name, urn: `urn:pulumi:ci::kasm-app::${NATIVE_PROVIDER_TYPE}::${name}`, props: r.provider?.props ?? {} };
}

/** The resources as a stack policy receives them. */
export function policyResources(resources: readonly FixtureResource[]): PolicyResource[] {
  const built = resources.map((r) => ({
    type: typeOf(r.kind, r.form),
    name: r.name,
    urn: urnOf(r.kind, r.name, r.form),
    props: r.props,
    provider: providerOf(r),
    opts: {
      protect: false,
      ignoreChanges: [],
      aliases: [],
      customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
      additionalSecretOutputs: [],
    },
    dependencies: [] as PolicyResource[],
    propertyDependencies: {} as Record<string, PolicyResource[]>,
    isType: () => false,
    asType: () => undefined,
  })) as unknown as PolicyResource[];
  const byName = new Map(built.map((r) => [r.name, r]));
  resources.forEach((r, i) => {
    for (const [property, names] of Object.entries(r.from ?? {})) {
      const deps = names.map((n) => byName.get(n)!);
      built[i].propertyDependencies[property] = deps;
      for (const d of deps) if (!built[i].dependencies.includes(d)) built[i].dependencies.push(d);
    }
  });
  return built;
}

/** What a direct call of a policy produced. */
export interface Outcome {
  /** Each violation; `enforcementLevel` only where the policy set one of its own (a config it cannot use). */
  readonly violations: { message: string; urn?: string; enforcementLevel?: string }[];
  /** The message of the "could not decide" error, when the policy threw it. */
  readonly undecided?: string;
  /** Set when the policy said it does not apply. */
  readonly notApplicable?: string;
}

class NotApplicable extends Error {}

/**
 * A `reportViolation` that collects into `violations`, taking both forms @pulumi/policy's server
 * takes: `(message, urn)`, and the object `{ message, urn, enforcementLevel }` (a level of its own).
 */
function reporter(violations: Outcome["violations"]): ReportViolation {
  return ((message: string | { message: string; urn?: string; enforcementLevel?: string }, urn?: string) => {
    if (typeof message === "string") violations.push({ message, urn });
    else violations.push({ message: message.message, urn: message.urn, enforcementLevel: message.enforcementLevel });
  }) as ReportViolation;
}

/** Call a stack policy directly, as @pulumi/policy would. */
export async function runStackPolicy(
  policy: StackValidationPolicy,
  resources: readonly FixtureResource[],
  config: Record<string, unknown> = {},
): Promise<Outcome> {
  const violations: Outcome["violations"] = [];
  const args: StackValidationArgs = {
    resources: policyResources(resources),
    stackTags: new Map(),
    getConfig: <T extends object>() => config as T,
    notApplicable: (reason?: string): never => {
      throw new NotApplicable(reason ?? "");
    },
  };
  try {
    await policy.validateStack(args, reporter(violations));
  } catch (error) {
    if (error instanceof NotApplicable) return { violations, notApplicable: error.message };
    if (isUndecidable(error)) return { violations, undecided: (error as Error).message };
    throw error;
  }
  return { violations };
}

/** Call a resource policy directly on one resource, as @pulumi/policy would. */
export async function runResourcePolicy(policy: ResourceValidationPolicy, resource: FixtureResource, config: Record<string, unknown> = {}): Promise<Outcome> {
  const violations: Outcome["violations"] = [];
  const args = {
    type: typeOf(resource.kind, resource.form),
    props: resource.props,
    provider: providerOf(resource),
    urn: urnOf(resource.kind, resource.name, resource.form),
    name: resource.name,
    opts: {
      protect: false,
      ignoreChanges: [],
      aliases: [],
      customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
      additionalSecretOutputs: [],
    },
    stackTags: new Map(),
    isType: () => false,
    asType: () => undefined,
    getConfig: <T extends object>() => config as T,
    notApplicable: (reason?: string): never => {
      throw new NotApplicable(reason ?? "");
    },
  } as unknown as ResourceValidationArgs;
  const validations = Array.isArray(policy.validateResource) ? policy.validateResource : [policy.validateResource!];
  try {
    for (const validate of validations) await validate(args, reporter(violations));
  } catch (error) {
    if (error instanceof NotApplicable) return { violations, notApplicable: error.message };
    if (isUndecidable(error)) return { violations, undecided: (error as Error).message };
    throw error;
  }
  return { violations };
}
