/**
 * `pulumi-kasm/testing`: run a Pulumi program's preview, up, refresh and destroy without the
 * Pulumi CLI, against the emulator or any Kasm (in CI, in a test). It runs the program through
 * Pulumi's own language runtime (`@pulumi/pulumi/cmd/run`, the program's own copy) against a
 * ResourceMonitor served here, drives Pulumi's real dynamic-provider host for its resources, and
 * keeps the stack's state in a JSON file with encrypted secrets. `npx kasm-test-engine` is its
 * command line.
 *
 * What it does not do that `pulumi up` does (README.md beside this file has the whole list): only
 * dynamic resources under the default provider; the program is transpiled, not type-checked;
 * `ignoreChanges`, `replaceOnChanges`, `protect`, `retainOnDelete`, `aliases` and `import` are not
 * honoured, nor `Resource.get` and invokes other than `getResource`; no dependent replacement, no
 * detailed diff, no `--target`; deletes run one at a time; the state is its own JSON file (no
 * lock, no history, not readable by the CLI); configuration comes only from the options (no
 * `Pulumi.<stack>.yaml`); policy remediations are not applied.
 *
 * @example
 * ```ts
 * const engine = new TestEngine({ programDir, project: "demo", stack: "dev", stateFile, passphrase: "pw",
 *   config: { "kasm:baseUrl": url, "kasm:apiKey": key, "kasm:apiKeySecret": secret }, secretKeys: ["kasm:apiKeySecret"] });
 * const result = await engine.up();
 * expect(result.resources.map((r) => r.op)).toContain("create");
 * ```
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { HostError, ProviderHost } from "./host";
import { RpcError, serveMonitor, type LogLine, type Registration, type RegistrationAnswer } from "./monitor";
import { PolicyPackRunner, type AnalyzedResource, type PolicyPackSpec, type PolicyViolation } from "./policy";
import { StateStore, dependencyOrder, type ResourceRecord } from "./state";
import { changedKeys, markSecret, plain, plainProps, samePlain, secretKeys, type Props } from "./values";

export type { LogLine } from "./monitor";
export type { PolicyPackConfig, PolicyPackSpec, PolicyViolation, EnforcementLevel } from "./policy";
export type { ResourceRecord } from "./state";
export { UNKNOWN } from "./values";

/** This package's root: `testing/..` from the sources, `dist/testing/../..` once built. */
const PACKAGE_ROOT = packageRoot(__dirname);
const STACK_TYPE = "pulumi:pulumi:Stack";

/** How long a program may take to exit after a failure ended the run, before it is killed. */
const EXIT_GRACE_MS = 10_000;

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
class RunEnded extends RpcError {
  constructor(message: string) {
    super(grpc.status.UNAVAILABLE, message);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Collects what a run produced, and builds the {@link RunResult}. */
class Recorder {
  readonly started = Date.now();
  readonly resources: ResourceResult[] = [];
  readonly errors: EngineError[] = [];
  readonly logs: LogLine[] = [];
  readonly output: string[] = [];
  readonly violations: PolicyViolation[] = [];

  op(record: Pick<ResourceRecord, "urn" | "type" | "id" | "outputs">, op: Operation, changed: string[] = []): void {
    this.resources.push({ urn: record.urn, type: record.type, op, id: record.id, outputs: plainProps(record.outputs), changed });
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
 * A stack driven by a real Pulumi program, without the Pulumi CLI. Each operation starts its own
 * processes (program, provider host, policy packs) and stops them before it returns.
 */
export class TestEngine {
  private readonly store: StateStore;

  constructor(readonly options: TestEngineOptions) {
    this.store = new StateStore(options.stateFile, options.passphrase);
  }

  /** The resources in the state file, secrets decrypted. */
  readState(): ResourceRecord[] {
    return this.store.load();
  }

  /** Run the program as a dry run: Check and Diff only, nothing changes, the state is not written. */
  preview(): Promise<RunResult> {
    return withEnvironment(this.options, (env) => new Deployment(this.options, this.store, env, true).run("preview"));
  }

  /**
   * Run the program and make the changes. With policy packs, a preview with the packs runs first
   * and a mandatory violation fails the `up` before any change, as `pulumi up --policy-pack` does.
   */
  async up(): Promise<RunResult> {
    if (this.options.policyPacks?.length) {
      const preview = await this.preview();
      if (!preview.ok) {
        const mandatory = preview.policyViolations.filter((v) => v.enforcementLevel === "mandatory");
        const errors = mandatory.map((v) => ({ urn: v.urn, message: `mandatory policy violation ${v.policyPack}/${v.policyName}: ${v.message}` }));
        return { ...preview, operation: "up", resources: [], errors: [...preview.errors, ...errors], summary: {} };
      }
    }
    return withEnvironment(this.options, (env) => new Deployment(this.options, this.store, env, false).run("up"));
  }

  /** Read every resource from its provider: update the state, and drop what no longer exists. */
  refresh(): Promise<RunResult> {
    return withEnvironment(this.options, async (env) => {
      const records = this.store.load();
      const rec = new Recorder();
      const host = await startHost(this.options, env);
      let outputs: Props;
      try {
        const next: ResourceRecord[] = [];
        for (const old of records) {
          if (!old.custom) {
            next.push(old);
            continue;
          }
          try {
            const read = await host.read(old.urn, old.id, plainProps(old.outputs));
            if (!read.id) {
              rec.op(old, "delete");
              continue;
            }
            // Secretness is the engine's to keep: a value secret before the read stays secret.
            const outputs = markSecret(read.properties, [...secretKeys(old.outputs), ...old.additionalSecretOutputs]);
            const inputs = read.inputs ? markSecret(read.inputs, secretKeys(old.inputs)) : old.inputs;
            const record = { ...old, id: read.id, outputs, inputs };
            next.push(record);
            rec.op(record, "read", changedKeys(old.outputs, outputs));
          } catch (error) {
            rec.errors.push({ urn: old.urn, message: `refreshing failed: ${errorMessage(error)}` });
            next.push(old);
          }
        }
        this.store.save(next);
        outputs = stackOutputs(next);
      } finally {
        await stopHost(host, rec);
      }
      return rec.result("refresh", outputs);
    });
  }

  /** Delete every resource, dependents first; the state keeps what could not be deleted. */
  destroy(): Promise<RunResult> {
    return withEnvironment(this.options, async (env) => {
      const records = this.store.load();
      const rec = new Recorder();
      const host = await startHost(this.options, env);
      try {
        const { left } = await deleteAll(host, dependencyOrder(records).reverse(), rec);
        this.store.save(records.filter((r) => left.has(r)));
      } finally {
        await stopHost(host, rec);
      }
      return rec.result("destroy", {});
    });
  }
}

/**
 * Run `fn` with the environment every process of an operation shares: `pulumi-kasm` resolves to
 * this repository through a `node_modules` link in a temporary folder on NODE_PATH (as it would
 * from a user's node_modules; the serialized providers `require("pulumi-kasm/provider")` in the
 * host), and `@pulumi/pulumi` to this repository's copy, the one the runtime itself runs from.
 */
async function withEnvironment<T>(options: TestEngineOptions, fn: (env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
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

/** Start the dynamic-provider host (one per operation) and configure it with the stack configuration. */
async function startHost(options: TestEngineOptions, env: NodeJS.ProcessEnv): Promise<ProviderHost> {
  const host = await ProviderHost.start({ cwd: options.programDir, env, script: pulumiScript("cmd/dynamic-provider", options.programDir) });
  try {
    await host.configure({ ...options.config }, [...(options.secretKeys ?? [])]);
  } catch (error) {
    await host.stop();
    throw error;
  }
  return host;
}

async function stopHost(host: ProviderHost | undefined, rec: Recorder): Promise<void> {
  if (!host) return;
  rec.output.push(...host.stderr);
  await host.stop();
}

/** The stack resource's outputs among `records`. */
function stackOutputs(records: readonly ResourceRecord[]): Props {
  return records.find((r) => r.type === STACK_TYPE)?.outputs ?? {};
}

/**
 * Delete `records` in the order given (reverse dependency order); components only leave the
 * state. A resource whose `deletedWith` target goes in the same pass is not deleted itself. Stops
 * at the first failure. Reports each delete, except for `silent` records (the old half of a
 * replacement, already reported as `replace`).
 */
async function deleteAll(
  host: ProviderHost,
  records: readonly ResourceRecord[],
  rec: Recorder,
  silent: ReadonlySet<ResourceRecord> = new Set(),
): Promise<{ deleted: Set<ResourceRecord>; left: Set<ResourceRecord> }> {
  const going = new Set(records.map((r) => r.urn));
  const left = new Set(records);
  const deleted = new Set<ResourceRecord>();
  for (const r of records) {
    try {
      if (r.custom && !(r.deletedWith && going.has(r.deletedWith))) await host.delete(r.urn, r.id, plainProps(r.outputs));
    } catch (error) {
      rec.errors.push({ urn: r.urn, message: `deleting failed: ${errorMessage(error)}` });
      break;
    }
    left.delete(r);
    deleted.add(r);
    if (!silent.has(r)) rec.op(r, "delete");
  }
  return { deleted, left };
}

/** One run of the program (`preview` or `up`): the monitor's side of it. */
class Deployment {
  private readonly rec = new Recorder();
  private readonly old: ResourceRecord[];
  /** The live (not pending-delete) old records, by URN. */
  private readonly oldByUrn = new Map<string, ResourceRecord>();
  /** Records registered in this run, in order, and the registrations they came from. */
  private readonly news: ResourceRecord[] = [];
  private readonly newByUrn = new Map<string, ResourceRecord>();
  private readonly registrations = new Map<string, Registration>();
  /** Old objects replaced create-before-delete in this run, deleted once the program is done. */
  private readonly replaced: ResourceRecord[] = [];
  private deleted = new Set<ResourceRecord>();
  /** Registrations in progress: the run waits for them, as the engine waits for steps in flight. */
  private readonly inflight = new Set<Promise<unknown>>();
  private failed = false;
  private host!: ProviderHost;
  private readonly packs: PolicyPackRunner[] = [];
  private program?: ChildProcess;

  constructor(
    private readonly o: TestEngineOptions,
    private readonly store: StateStore,
    private readonly env: NodeJS.ProcessEnv,
    private readonly dryRun: boolean,
  ) {
    this.old = store.load();
    for (const r of this.old) if (!r.pendingDelete) this.oldByUrn.set(r.urn, r);
  }

  private get stackPrefix(): string {
    return `urn:pulumi:${this.o.stack}::${this.o.project}::`;
  }

  async run(operation: "preview" | "up"): Promise<RunResult> {
    const monitor = await serveMonitor({
      registerResource: (reg) => this.track(this.register(reg)),
      registerResourceOutputs: (urn, outputs) => {
        const record = this.newByUrn.get(urn);
        if (record) record.outputs = outputs;
      },
      invoke: (tok, args) => this.invoke(tok, args),
      unsupported: (what) => this.fail("", `${what} is not supported by the test engine`),
      // The runtime sends a debug line for every RPC; like the CLI without --debug, keep the rest.
      log: (line) => line.severity !== "debug" && this.rec.logs.push(line),
    });
    try {
      this.host = await startHost(this.o, this.env);
      for (const spec of this.o.policyPacks ?? []) {
        const context = { engineAddress: monitor.address, env: this.env, stack: this.o.stack, project: this.o.project, dryRun: this.dryRun, stackPrefix: this.stackPrefix };
        this.packs.push(await PolicyPackRunner.start(spec, context));
      }
      const code = await this.runProgram(monitor.address);
      await Promise.allSettled([...this.inflight]);
      if (code !== 0 && !this.failed) {
        // The runtime reports the program's own errors through Log before it exits.
        const logged = this.rec.logs.filter((l) => l.severity === "error").map((l) => l.message);
        this.rec.errors.push({ urn: "", message: logged.join("\n") || `the program exited with code ${code}` });
        this.failed = true;
      }
      if (!this.failed) await this.finish();
      if (!this.dryRun) this.store.save(this.nextState());
    } finally {
      monitor.close();
      this.program?.kill("SIGKILL");
      await stopHost(this.host, this.rec);
      for (const pack of this.packs) {
        this.rec.output.push(...pack.stderr);
        await pack.stop();
      }
    }
    // After the processes stopped, so that programOutput has all of the host's and the packs' stderr.
    return this.rec.result(operation, stackOutputs(this.news));
  }

  /** Run the program to its end; resolves with its exit code. */
  private runProgram(address: string): Promise<number> {
    const args = [pulumiScript("cmd/run", this.o.programDir), `--monitor=${address}`, `--engine=${address}`, `--project=${this.o.project}`, `--stack=${this.o.stack}`, "--organization=organization"];
    if (this.dryRun) args.push("--dry-run");
    const child = spawn(process.execPath, [...args, this.o.programDir], {
      cwd: this.o.programDir,
      env: {
        ...this.env,
        PULUMI_NODEJS_TYPESCRIPT: "true",
        // ts-node's type check cannot see packages found through NODE_PATH: the program is only transpiled.
        PULUMI_NODEJS_TRANSPILE_ONLY: "true",
        PULUMI_CONFIG: JSON.stringify(this.o.config ?? {}),
        PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(this.o.secretKeys ?? []),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.program = child;
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => this.rec.output.push(chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => this.rec.output.push(chunk));
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    });
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inflight.add(promise);
    const done = () => this.inflight.delete(promise);
    promise.then(done, done);
    return promise;
  }

  /**
   * Record an error and end the run; returns the error to answer with. Every registration from now
   * on is answered UNAVAILABLE too, which the Pulumi runtime takes as "the engine is shutting down":
   * the program exits at once (with any other code it stays alive for most of a minute). A program
   * that still lingers is killed.
   */
  private fail(urn: string, message: string, initFailure?: EngineError["initFailure"]): RunEnded {
    this.rec.errors.push(initFailure ? { urn, message, initFailure } : { urn, message });
    if (!this.failed) {
      this.failed = true;
      setTimeout(() => this.program?.kill("SIGKILL"), EXIT_GRACE_MS).unref();
    }
    return new RunEnded(message);
  }

  private urnOf(reg: Registration): string {
    // A child's type is qualified by its parent's, except under the stack.
    const parentType = reg.parent ? reg.parent.split("::")[2] : undefined;
    const type = parentType && parentType !== STACK_TYPE ? `${parentType}$${reg.type}` : reg.type;
    return `${this.stackPrefix}${type}::${reg.name}`;
  }

  private async register(reg: Registration): Promise<RegistrationAnswer> {
    if (this.failed) throw new RunEnded("the run has ended after an error");
    const urn = this.urnOf(reg);
    if (this.newByUrn.has(urn)) throw this.fail(urn, `duplicate resource URN ${urn}`);
    this.registrations.set(urn, reg);
    const old = this.oldByUrn.get(urn);
    const base: ResourceRecord = {
      urn,
      type: reg.type,
      custom: reg.custom,
      id: old?.id ?? "",
      inputs: reg.object,
      outputs: {},
      parent: reg.parent,
      dependencies: reg.dependencies,
      propertyDependencies: reg.propertyDependencies,
      additionalSecretOutputs: reg.additionalSecretOutputs,
      ...(reg.deletedWith ? { deletedWith: reg.deletedWith } : {}),
    };
    const answer = (record: ResourceRecord): RegistrationAnswer => ({ urn, id: record.id, object: record.outputs, propertyDependencies: reg.propertyDependencies });

    if (!reg.custom) {
      // The stack and components: no provider; their outputs come with RegisterResourceOutputs.
      const record = this.remember({ ...base, id: "", outputs: old?.outputs ?? {} }, old ? "same" : "create");
      await this.analyze(record);
      return { ...answer(record), object: {} };
    }
    if (reg.provider || !reg.type.startsWith("pulumi-nodejs:dynamic")) {
      throw this.fail(urn, `${reg.type}: only dynamic resources (pulumi-nodejs:dynamic/...) under the default provider are supported`);
    }
    if (reg.importId) throw this.fail(urn, "importing (the `import` option) is not supported by the test engine");

    const secretIn = secretKeys(reg.object);
    const secretOut = [...secretIn, ...reg.additionalSecretOutputs];
    const checked = await this.host.check(urn, old ? plainProps(old.inputs) : {}, plainProps(reg.object)).catch((e) => {
      throw this.fail(urn, `check failed: ${errorMessage(e)}`);
    });
    if (checked.failures.length) throw this.fail(urn, `check failed: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    // The host hands inputs back without secrets (it does not accept them): restore their secretness.
    const inputs = markSecret(checked.inputs, secretIn);
    // What a preview answers for a change: the inputs, so that computed outputs are unknown.
    const planned: ResourceRecord = { ...base, inputs, outputs: markSecret(checked.inputs, secretOut) };
    await this.analyze(planned);

    if (!old) {
      if (this.dryRun) return answer(this.remember({ ...planned, id: "" }, "create"));
      return answer(this.remember(await this.create(urn, planned, secretOut), "create"));
    }

    const diff = await this.host.diff(urn, old.id, plainProps(old.outputs), checked.inputs).catch((e) => {
      throw this.fail(urn, `diff failed: ${errorMessage(e)}`);
    });
    // DIFF_UNKNOWN: the engine compares the inputs itself. An object that failed to initialise is updated again.
    const changes = diff.changes === "some" || (diff.changes === "unknown" && !samePlain(old.inputs, inputs)) || Boolean(old.initErrors?.length);
    const changed = changedKeys(old.inputs, inputs);
    if (!changes) return answer(this.remember({ ...base, inputs, outputs: markSecret(old.outputs, secretOut) }, "same"));

    if (diff.replaces.length === 0) {
      if (this.dryRun) return answer(this.remember(planned, "update", changed));
      const update = () => this.host.update(urn, old.id, plainProps(old.outputs), checked.inputs);
      return answer(this.remember(await this.apply(urn, planned, secretOut, "update", update), "update", changed));
    }
    if (this.dryRun) return answer(this.remember({ ...planned, id: "" }, "replace", changed));
    if (reg.deleteBeforeReplace ?? diff.deleteBeforeReplace) {
      await this.host.delete(urn, old.id, plainProps(old.outputs)).catch((e) => {
        throw this.fail(urn, `deleting for replacement failed: ${errorMessage(e)}`);
      });
      this.oldByUrn.delete(urn); // gone: the state must not keep it if the create fails
      return answer(this.remember(await this.create(urn, planned, secretOut), "replace", changed));
    }
    const created = await this.create(urn, planned, secretOut);
    this.replaced.push({ ...old, pendingDelete: true });
    return answer(this.remember(created, "replace", changed));
  }

  private create(urn: string, planned: ResourceRecord, secretOut: string[]): Promise<ResourceRecord> {
    return this.apply(urn, planned, secretOut, "create", () => this.host.create(urn, plainProps(planned.inputs)));
  }

  /**
   * Create or update through the host. An initialisation failure (the object exists but is not
   * right) keeps the object in the state with what the provider returned, then ends the run.
   */
  private async apply(
    urn: string,
    planned: ResourceRecord,
    secretOut: string[],
    verb: "create" | "update",
    fn: () => Promise<{ id?: string; properties: Props }>,
  ): Promise<ResourceRecord> {
    try {
      const result = await fn();
      return { ...planned, id: result.id ?? planned.id, outputs: markSecret(result.properties, secretOut) };
    } catch (error) {
      const init = error instanceof HostError ? error.initFailure : undefined;
      if (!init) throw this.fail(urn, `${verb} failed: ${errorMessage(error)}`);
      this.remember({ ...planned, id: init.id, outputs: markSecret(init.properties, secretOut), initErrors: init.reasons }, verb);
      throw this.fail(urn, `${verb} failed: ${errorMessage(error)}`, { id: init.id, reasons: init.reasons });
    }
  }

  private remember(record: ResourceRecord, op: Operation, changed: string[] = []): ResourceRecord {
    this.news.push(record);
    this.newByUrn.set(record.urn, record);
    this.rec.op(record, op, changed);
    return record;
  }

  /** Run the policy packs on a resource's planned inputs; a mandatory violation fails an update (not a preview). */
  private async analyze(record: ResourceRecord): Promise<void> {
    if (!this.packs.length || record.type === STACK_TYPE) return;
    for (const pack of this.packs) {
      const found = await pack.analyze(this.analyzed(record, record.inputs)).catch((e) => {
        throw this.fail(record.urn, errorMessage(e));
      });
      this.rec.violations.push(...found);
      const mandatory = found.find((v) => v.enforcementLevel === "mandatory");
      if (mandatory && !this.dryRun) throw this.fail(record.urn, `mandatory policy violation ${mandatory.policyPack}/${mandatory.policyName}: ${mandatory.message}`);
    }
  }

  private analyzed(record: ResourceRecord, properties: Props): AnalyzedResource {
    const reg = this.registrations.get(record.urn);
    return {
      urn: record.urn,
      type: record.type,
      name: reg?.name ?? record.urn.split("::").pop() ?? "",
      properties,
      record,
      protect: reg?.protect,
      ignoreChanges: reg?.ignoreChanges,
      deleteBeforeReplace: reg?.deleteBeforeReplace,
    };
  }

  private async invoke(tok: string, args: Props): Promise<Props> {
    if (tok === "pulumi:pulumi:getResource") {
      // The runtime asks for a resource by URN (`opts.urn`, or a resource reference to rehydrate).
      const urn = String(plain(args.urn));
      const record = this.newByUrn.get(urn) ?? this.oldByUrn.get(urn);
      if (!record) throw this.fail("", `getResource: no resource ${urn} in the stack`);
      return { urn, id: record.id, state: record.outputs };
    }
    throw this.fail("", `invoke ${tok} is not supported by the test engine`);
  }

  /** After the program: delete what it no longer declares and the replaced objects, then run stack policies. */
  private async finish(): Promise<void> {
    const gone = this.old.filter((r) => r.pendingDelete || !this.newByUrn.has(r.urn));
    const doomed = dependencyOrder([...gone, ...this.replaced]).reverse();
    if (this.dryRun) {
      for (const r of doomed) this.rec.op(r, "delete");
    } else {
      const { deleted, left } = await deleteAll(this.host, doomed, this.rec, new Set(this.replaced));
      this.deleted = deleted;
      if (left.size) this.failed = true;
    }
    if (!this.packs.length || this.failed) return;
    const resources = this.news.map((r) => this.analyzed(r, r.outputs));
    for (const pack of this.packs) {
      const found = await pack.analyzeStack(resources).catch((e) => {
        this.rec.errors.push({ urn: "", message: errorMessage(e) });
        return [];
      });
      this.rec.violations.push(...found);
    }
  }

  /**
   * The state after the run: what was registered, then what is left of the old state (after a
   * failure, everything the program did not get to), in dependency order.
   */
  private nextState(): ResourceRecord[] {
    const kept = this.old.filter(
      (r) => !this.deleted.has(r) && (r.pendingDelete || (!this.newByUrn.has(r.urn) && this.oldByUrn.has(r.urn))),
    );
    return dependencyOrder([...this.news, ...kept, ...this.replaced.filter((r) => !this.deleted.has(r))]);
  }
}
