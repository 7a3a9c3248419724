/**
 * What a run of the {@link TestEngine} is made of, shared by the engine (refresh, destroy) and a
 * deployment (preview, up): the options and results, the recorder of what happened, the
 * environment every process of an operation shares, and starting and stopping the provider host.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { ProviderHost } from "./host";
import { RpcError, type LogLine } from "./monitor";
import type { PolicyPackSpec, PolicyViolation } from "./policy";
import { dependencyUrns, type ResourceRecord } from "./state";
import { plainProps, type Props } from "./values";
import type { TestEngine } from "./engine";

/** This package's root: `testing/..` from the sources, `dist/testing/../..` once built. */
const PACKAGE_ROOT = packageRoot(__dirname);
/** The type of the stack resource, whose outputs are the stack's. */
export const STACK_TYPE = "pulumi:pulumi:Stack";

/** Options of a {@link TestEngine}. */
export interface TestEngineOptions {
  /** The Pulumi program's folder (a TypeScript or JavaScript program with a package.json). */
  readonly programDir: string;
  readonly project: string;
  readonly stack: string;
  /** The state file; created by the first `up`. */
  readonly stateFile: string;
  /** Encrypts the secrets in the state file. */
  readonly passphrase: string;
  /** Stack configuration, by fully qualified key (`kasm:baseUrl`, `<project>:password`), as strings. */
  readonly config?: Readonly<Record<string, string>>;
  /** The configuration keys whose values are secret. */
  readonly secretKeys?: readonly string[];
  /** Policy packs to run during `preview` and `up`. */
  readonly policyPacks?: readonly PolicyPackSpec[];
  /** Extra environment variables for the program, the provider host and the policy packs. */
  readonly env?: Readonly<NodeJS.ProcessEnv>;
  /**
   * Whether `NODE_PATH` holds a link to this package as `pulumi-kasm`, then this package's
   * node_modules, so that a program without node_modules of its own resolves both (this
   * repository's examples and tests). Default: only when the program's folder has no
   * `node_modules/pulumi-kasm`; a program that installed its own packages resolves everything from
   * them, as under the CLI.
   */
  readonly linkRepository?: boolean;
  /**
   * The program's stack trace limit (Node's `--stack-trace-limit`), default 1: the frame that
   * threw. On Node 20 and 22 an error thrown inside an `apply` of a TypeScript program takes
   * minutes to report with Node's default of 10 frames (Pulumi's runtime formats it with
   * `util.inspect`, see README.md, "When a program fails"), seconds with 1. `false` leaves Node's
   * default, as does a `--stack-trace-limit` in the `NODE_OPTIONS` of `env` or of this process. A
   * program that sets `Error.stackTraceLimit` itself gets what it set.
   */
  readonly stackTraceLimit?: number | false;
  /**
   * Called as each resource's operation completes, in the order of `RunResult.resources` (`up`
   * with policy packs calls it for its preview first, with `operation: "preview"`). The engine
   * prints nothing itself; the command line prints its progress lines from this.
   */
  readonly onResource?: (operation: RunResult["operation"], resource: ResourceResult) => void;
}

/** What happened to a resource: the CLI's words; `read` is a resource read by `refresh`. */
export type Operation = "create" | "update" | "replace" | "delete" | "same" | "read";

/** One resource in a {@link RunResult}. */
export interface ResourceResult {
  readonly urn: string;
  readonly type: string;
  readonly op: Operation;
  /** The provider's id ("" for components, and for objects a preview would create). */
  readonly id: string;
  /** The outputs after the operation, secrets unwrapped (during a preview: the planned outputs). */
  readonly outputs: Props;
  /** The top-level properties that changed: inputs for update/replace, outputs for refresh. */
  readonly changed: readonly string[];
}

/** An error that failed the run. */
export interface EngineError {
  /** The resource, or "" for an error of the program itself. */
  readonly urn: string;
  readonly message: string;
  /** Set when the object was created but failed to initialise: it stays in the state with this id. */
  readonly initFailure?: { readonly id: string; readonly reasons: readonly string[] };
  /** Set when the error is a mandatory policy violation that stopped the run (it is in `policyViolations` too). */
  readonly violation?: PolicyViolation;
}

/** The error that a mandatory policy violation makes of the run, as `pulumi up --policy-pack` fails on one. */
export function violationError(violation: PolicyViolation): EngineError {
  return {
    urn: violation.urn,
    message: `mandatory policy violation ${violation.policyPack}/${violation.policyName}: ${violation.message}`,
    violation,
  };
}

/** The result of one operation. */
export interface RunResult {
  readonly operation: "preview" | "up" | "refresh" | "destroy";
  /** No error and no mandatory policy violation. */
  readonly ok: boolean;
  /** Each resource with what was (or, in a preview, would be) done, in the order it happened. */
  readonly resources: readonly ResourceResult[];
  readonly errors: readonly EngineError[];
  /** What the program logged through `pulumi.log` (and the runtime's own errors), debug lines left out. */
  readonly logs: readonly LogLine[];
  /** The stack outputs, secrets unwrapped; during a preview, a value not known yet is {@link UNKNOWN}. */
  readonly outputs: Props;
  readonly policyViolations: readonly PolicyViolation[];
  /** The program's stdout and stderr, and the provider host's stderr, for debugging a failure. */
  readonly programOutput: string;
  readonly durationMs: number;
  /** How many resources each operation touched. */
  readonly summary: Readonly<Partial<Record<Operation, number>>>;
}

/** A failure that ends the run; thrown inside a registration and answered to the program as UNAVAILABLE. */
export class RunEnded extends RpcError {
  constructor(message: string) {
    super(grpc.status.UNAVAILABLE, message);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Collects what a run produced, and builds the {@link RunResult}. */
export class Recorder {
  readonly started = Date.now();

  /** `onResource` hears of each resource as it is recorded. */
  constructor(
    private readonly operation?: RunResult["operation"],
    private readonly onResource?: TestEngineOptions["onResource"],
  ) {}

  readonly resources: ResourceResult[] = [];
  readonly errors: EngineError[] = [];
  readonly logs: LogLine[] = [];
  readonly output: string[] = [];
  readonly violations: PolicyViolation[] = [];

  op(record: Pick<ResourceRecord, "urn" | "type" | "id" | "outputs">, op: Operation, changed: string[] = []): void {
    const resource: ResourceResult = { urn: record.urn, type: record.type, op, id: record.id, outputs: plainProps(record.outputs), changed };
    this.resources.push(resource);
    if (this.onResource && this.operation) {
      try {
        this.onResource(this.operation, resource);
      } catch {
        // A listener's failure is not the run's.
      }
    }
  }

  result(operation: RunResult["operation"], outputs: Props): RunResult {
    const summary: Partial<Record<Operation, number>> = {};
    for (const r of this.resources) summary[r.op] = (summary[r.op] ?? 0) + 1;
    const mandatory = this.violations.some((v) => v.enforcementLevel === "mandatory");
    return {
      operation,
      ok: this.errors.length === 0 && !mandatory,
      resources: this.resources,
      errors: this.errors,
      logs: this.logs,
      outputs: plainProps(outputs),
      policyViolations: this.violations,
      programOutput: this.output.join(""),
      durationMs: Date.now() - this.started,
      summary,
    };
  }
}

/**
 * Run `fn` with the environment every process of an operation shares: `pulumi-kasm` resolves to
 * this repository through a `node_modules` link in a temporary folder on NODE_PATH (as it would
 * from a user's node_modules; the serialized providers `require("pulumi-kasm/provider")` in the
 * host), and `@pulumi/pulumi` to this repository's copy, the one the runtime itself runs from.
 */
export async function withEnvironment<T>(options: TestEngineOptions, fn: (env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  // An installed program resolves everything from its own node_modules (and NODE_PATH stays the caller's).
  const link = options.linkRepository ?? !existsSync(path.join(options.programDir, "node_modules", "pulumi-kasm"));
  if (!link) return fn({ ...process.env, ...options.env });
  const linkDir = mkdtempSync(path.join(tmpdir(), "kasm-engine-"));
  try {
    mkdirSync(path.join(linkDir, "node_modules"));
    symlinkSync(PACKAGE_ROOT, path.join(linkDir, "node_modules", "pulumi-kasm"), "dir");
    const nodePath = [path.join(linkDir, "node_modules"), path.join(PACKAGE_ROOT, "node_modules"), process.env.NODE_PATH].filter(Boolean).join(path.delimiter);
    return await fn({ ...process.env, ...options.env, NODE_PATH: nodePath });
  } finally {
    rmSync(linkDir, { recursive: true, force: true });
  }
}

/** The folder above `from` that holds this package's package.json. */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "pulumi-kasm") return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, "..");
  }
}

/**
 * A script of `@pulumi/pulumi` (`cmd/run`, `cmd/dynamic-provider`), from the program's own copy
 * when it has one, as the CLI does (the runtime must be the one the program imports), else this
 * package's.
 */
export function pulumiScript(script: string, programDir: string): string {
  try {
    return require.resolve(`@pulumi/pulumi/${script}`, { paths: [programDir] });
  } catch {
    return require.resolve(`@pulumi/pulumi/${script}`);
  }
}

/**
 * Start the dynamic-provider host (one per operation), logging to the Engine service at
 * `engineAddress`, and configure it with the stack configuration.
 */
export async function startHost(options: TestEngineOptions, env: NodeJS.ProcessEnv, engineAddress: string): Promise<ProviderHost> {
  const host = await ProviderHost.start({ cwd: options.programDir, env, script: pulumiScript("cmd/dynamic-provider", options.programDir), engineAddress });
  try {
    await host.configure({ ...options.config }, [...(options.secretKeys ?? [])]);
  } catch (error) {
    await host.stop();
    throw error;
  }
  return host;
}

export async function stopHost(host: ProviderHost | undefined, rec: Recorder): Promise<void> {
  if (!host) return;
  rec.output.push(...host.stderr);
  await host.stop();
}

/** The stack resource's outputs among `records`. */
export function stackOutputs(records: readonly ResourceRecord[]): Props {
  return records.find((r) => r.type === STACK_TYPE)?.outputs ?? {};
}

/**
 * Pulumi's refusal to delete a protected resource (its `deleteProtectedError`, word for word), so
 * that a message read here reads the same under the CLI.
 */
export function protectedDeleteMessage(urn: string): string {
  return (
    `resource "${urn}" cannot be deleted\n` +
    "because it is protected. To unprotect the resource, either remove the `protect` flag from the resource in your Pulumi " +
    `program and run \`pulumi up\`, or use the command:\n\`pulumi state unprotect '${urn}'\``
  );
}

/**
 * Delete `records` (given in reverse dependency order) as the Pulumi engine does: in levels, each
 * level the resources that nothing left in the pass depends on. Every delete of a level is tried;
 * after a level with a failure nothing more is deleted (the CLI runs a level's deletes in parallel,
 * then stops). A protected resource is refused with Pulumi's message, except as the old half of a
 * replacement; a `retainOnDelete` one leaves the state without a call to the provider; components
 * only leave the state; a resource whose `deletedWith` target goes in the same pass is not deleted
 * itself. Reports each delete, except for `silent` records (the old half of a replacement, already
 * reported as `replace`).
 */
export async function deleteAll(
  host: ProviderHost,
  records: readonly ResourceRecord[],
  rec: Recorder,
  silent: ReadonlySet<ResourceRecord> = new Set(),
): Promise<{ deleted: Set<ResourceRecord>; left: Set<ResourceRecord> }> {
  const going = new Set(records.map((r) => r.urn));
  const left = new Set(records);
  const deleted = new Set<ResourceRecord>();
  for (const level of deleteLevels(records)) {
    let failed = false;
    for (const r of level) {
      if (r.protect && !silent.has(r)) {
        rec.errors.push({ urn: r.urn, message: protectedDeleteMessage(r.urn) });
        failed = true;
        continue;
      }
      try {
        const skip = !r.custom || r.retainOnDelete || (r.deletedWith && going.has(r.deletedWith));
        if (!skip) await host.delete(r.urn, r.id, plainProps(r.outputs));
      } catch (error) {
        rec.errors.push({ urn: r.urn, message: `deleting failed: ${errorMessage(error)}` });
        failed = true;
        continue;
      }
      left.delete(r);
      deleted.add(r);
      if (!silent.has(r)) rec.op(r, "delete");
    }
    if (failed) break;
  }
  return { deleted, left };
}

/**
 * `records` (reverse dependency order) grouped as the engine schedules deletes: a resource's level
 * is one more than the highest level of the resources in the pass that depend on it (as a child,
 * through `dependsOn` or a property), so each level waits only for the ones before it.
 */
export function deleteLevels(records: readonly ResourceRecord[]): ResourceRecord[][] {
  const byUrn = new Map<string, ResourceRecord[]>();
  for (const r of records) byUrn.set(r.urn, [...(byUrn.get(r.urn) ?? []), r]);
  const levelOf = new Map<ResourceRecord, number>();
  for (const r of records) {
    const level = levelOf.get(r) ?? 0;
    levelOf.set(r, level);
    for (const urn of dependencyUrns(r)) for (const dep of byUrn.get(urn) ?? []) if (dep !== r) levelOf.set(dep, Math.max(levelOf.get(dep) ?? 0, level + 1));
  }
  const levels: ResourceRecord[][] = [];
  for (const r of records) (levels[levelOf.get(r)!] ??= []).push(r);
  return levels.filter(Boolean);
}
