/**
 * One run of a program (`preview` or `up`) for the {@link TestEngine}: the resource monitor's side
 * of it. It registers what the program declares, diffs and applies it through the provider host,
 * runs the policy packs, then deletes what the program no longer declares.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { HostError, ProviderHost } from "./host";
import { serveMonitor, type Registration, type RegistrationAnswer } from "./monitor";
import { PolicyPackRunner, type AnalyzedResource } from "./policy";
import { StateStore, dependencyOrder, type ResourceRecord } from "./state";
import { changedKeys, keepOldValues, markSecret, plain, plainProps, samePlain, secretKeys, type Props } from "./values";
import {
  deleteAll,
  errorMessage,
  protectedDeleteMessage,
  pulumiScript,
  Recorder,
  RunEnded,
  stackOutputs,
  startHost,
  stopHost,
  STACK_TYPE,
  violationError,
  type EngineError,
  type Operation,
  type RunResult,
  type TestEngineOptions,
} from "./engine-run";
import type { TestEngine } from "./engine";

/** How long a program may take to exit after a failure ended the run, before it is killed. */
const EXIT_GRACE_MS = 10_000;

/** The colour escapes of util.inspect (SGR sequences). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character starts each colour code this removes.
const ANSI_COLOURS = /\u001b\[[0-9;]*m/g;

/** The program's stack trace limit when neither the options nor NODE_OPTIONS say otherwise. */
const DEFAULT_STACK_TRACE_LIMIT = 1;

/**
 * Node's options for the program's process: a small stack trace limit (see
 * `TestEngineOptions.stackTraceLimit`), unless turned off or set in NODE_OPTIONS. It is an
 * argument of the program's `node` (Pulumi's `cmd/run` runs the program in its own process), so
 * the processes the program starts keep Node's default; a program's `Error.stackTraceLimit = n`
 * still takes effect, as the flag only sets the starting value.
 */
export function nodeArguments(o: TestEngineOptions, env: NodeJS.ProcessEnv): string[] {
  const limit = o.stackTraceLimit ?? DEFAULT_STACK_TRACE_LIMIT;
  if (limit === false || /--stack-trace-limit\b/.test(env.NODE_OPTIONS ?? "")) return [];
  if (!Number.isInteger(limit) || limit < 0) throw new Error(`stackTraceLimit: expected a whole number of frames (0 or more) or false, got ${limit}`);
  return [`--stack-trace-limit=${limit}`];
}

/** One run of the program (`preview` or `up`): the monitor's side of it. */
export class Deployment {
  private readonly rec: Recorder;
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
  /** Old URNs that a registration took over through `aliases`: renamed, not gone. */
  private readonly aliased = new Set<string>();
  /** Registrations in progress: the run waits for them, as the engine waits for steps in flight. */
  private readonly inflight = new Set<Promise<unknown>>();
  private failed = false;
  private host!: ProviderHost;
  private readonly packs: PolicyPackRunner[] = [];
  /** Settles once the provider host and the policy packs have started (see {@link startProcesses}). */
  private started: Promise<void> = Promise.resolve();
  private program?: ChildProcess;

  constructor(
    private readonly o: TestEngineOptions,
    private readonly store: StateStore,
    private readonly env: NodeJS.ProcessEnv,
    private readonly dryRun: boolean,
  ) {
    this.rec = new Recorder(dryRun ? "preview" : "up", o.onResource);
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
      // The host and the packs start while the program starts (each spends a second or more
      // loading Pulumi); a registration waits for them (see `started`).
      this.started = this.startProcesses(monitor.address);
      const startFailure = this.started.then(
        () => undefined,
        (error: unknown) => error,
      );
      const code = await this.runProgram(monitor.address);
      await Promise.allSettled([...this.inflight]);
      // A host or pack that could not start fails the operation, as it did before the program ran.
      const failure = await startFailure;
      if (failure !== undefined) throw failure;
      if (code !== 0 && !this.failed) {
        // The runtime reports the program's own errors through Log before it exits, formatted
        // with util.inspect's colours (which Node 20 and 22 give up on with long stacks): drop them.
        const logged = this.rec.logs.filter((l) => l.severity === "error").map((l) => l.message.replace(ANSI_COLOURS, ""));
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

  /**
   * Start the provider host and the policy packs, all at once. Whichever started is kept (and so
   * stopped at the end of the run) even when another failed to.
   */
  private async startProcesses(address: string): Promise<void> {
    const context = { engineAddress: address, env: this.env, stack: this.o.stack, project: this.o.project, dryRun: this.dryRun, stackPrefix: this.stackPrefix };
    const [host, ...packs] = await Promise.allSettled([
      startHost(this.o, this.env, address),
      ...(this.o.policyPacks ?? []).map((spec) => PolicyPackRunner.start(spec, context)),
    ]);
    if (host.status === "fulfilled") this.host = host.value;
    for (const pack of packs) if (pack.status === "fulfilled") this.packs.push(pack.value as PolicyPackRunner);
    const failed = [host, ...packs].find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;
  }

  /** Run the program to its end; resolves with its exit code. */
  private runProgram(address: string): Promise<number> {
    const args = [
      pulumiScript("cmd/run", this.o.programDir),
      `--monitor=${address}`,
      `--engine=${address}`,
      `--project=${this.o.project}`,
      `--stack=${this.o.stack}`,
      "--organization=organization",
    ];
    if (this.dryRun) args.push("--dry-run");
    const child = spawn(process.execPath, [...nodeArguments(this.o, this.env), ...args, this.o.programDir], {
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
    return this.end(initFailure ? { urn, message, initFailure } : { urn, message });
  }

  /** {@link fail} with the error as it is recorded (a policy violation's keeps the violation). */
  private end(error: EngineError): RunEnded {
    const { message } = error;
    this.rec.errors.push(error);
    if (!this.failed) {
      this.failed = true;
      setTimeout(() => this.program?.kill("SIGKILL"), EXIT_GRACE_MS).unref();
    }
    return new RunEnded(message);
  }

  private urnOf(reg: Registration): string {
    return urnFor(this.o.stack, this.o.project, reg.parent, reg.type, reg.name);
  }

  /** The old record the registration takes over: its own URN's, else the first of its aliases'. */
  private oldOf(urn: string, reg: Registration): ResourceRecord | undefined {
    const own = this.oldByUrn.get(urn);
    if (own) return own;
    for (const alias of reg.aliases) {
      const aliasUrn =
        "urn" in alias
          ? alias.urn
          : urnFor(
              alias.stack ?? this.o.stack,
              alias.project ?? this.o.project,
              alias.noParent ? "" : (alias.parentUrn ?? reg.parent),
              alias.type ?? reg.type,
              alias.name ?? reg.name,
            );
      const found = aliasUrn !== urn ? this.oldByUrn.get(aliasUrn) : undefined;
      if (found && !this.newByUrn.has(aliasUrn)) {
        this.aliased.add(aliasUrn);
        return found;
      }
    }
    return undefined;
  }

  private async register(reg: Registration): Promise<RegistrationAnswer> {
    if (this.failed) throw new RunEnded("the run has ended after an error");
    await this.started.catch((error: unknown) => {
      throw this.fail("", `the provider host or a policy pack did not start: ${errorMessage(error)}`);
    });
    const urn = this.urnOf(reg);
    if (this.newByUrn.has(urn)) throw this.fail(urn, `duplicate resource URN ${urn}`);
    this.registrations.set(urn, reg);
    const old = this.oldOf(urn, reg);
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
      ...(reg.protect ? { protect: true as const } : {}),
      ...(reg.retainOnDelete ? { retainOnDelete: true as const } : {}),
    };
    const answer = (record: ResourceRecord): RegistrationAnswer => ({
      urn,
      id: record.id,
      object: record.outputs,
      propertyDependencies: reg.propertyDependencies,
    });

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

    // `ignoreChanges`: the named inputs keep their old values, before Check sees them, as in the engine.
    const declared = old ? keepOldValues(reg.object, old.inputs, reg.ignoreChanges) : reg.object;
    const secretIn = secretKeys(declared);
    const secretOut = [...secretIn, ...reg.additionalSecretOutputs];
    const checked = await this.host.check(urn, old ? plainProps(old.inputs) : {}, plainProps(declared)).catch((e) => {
      throw this.fail(urn, `check failed: ${errorMessage(e)}`);
    });
    // A reason that names its property already (the bulk kinds' `users[0].realm: ...`), or a failure
    // that names no property (a secret input's, whose reason names it), is not led by it.
    const failureText = (f: { property: string; reason: string }) => (!f.property || f.reason.startsWith(f.property) ? f.reason : `${f.property}: ${f.reason}`);
    if (checked.failures.length) throw this.fail(urn, `check failed: ${checked.failures.map(failureText).join("; ")}`);
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
    if (reg.protect && old.protect) {
      // The engine refuses to replace what stays protected; a preview reports it and goes on.
      const message = `unable to replace resource "${urn}"\nas it is currently marked for protection. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\``;
      if (!this.dryRun) throw this.fail(urn, message);
      this.rec.errors.push({ urn, message });
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
      if (mandatory && !this.dryRun) throw this.end(violationError(mandatory));
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
      // As Pulumi's engine answers it: only from what this run has registered, never from the state.
      const urn = String(plain(args.urn));
      const record = this.newByUrn.get(urn);
      if (!record) throw this.fail("", `unknown resource ${urn}: only a resource this run has registered can be read by its URN`);
      return { urn, id: record.id, state: record.outputs };
    }
    throw this.fail("", `invoke ${tok} is not supported by the test engine`);
  }

  /** After the program: delete what it no longer declares and the replaced objects, then run stack policies. */
  private async finish(): Promise<void> {
    const gone = this.old.filter((r) => r.pendingDelete || (!this.newByUrn.has(r.urn) && !this.aliased.has(r.urn)));
    const doomed = dependencyOrder([...gone, ...this.replaced]).reverse();
    if (this.dryRun) {
      const replaced = new Set(this.replaced);
      for (const r of doomed) {
        // The CLI's preview lists the delete, and fails on it.
        this.rec.op(r, "delete");
        if (r.protect && !replaced.has(r)) this.rec.errors.push({ urn: r.urn, message: protectedDeleteMessage(r.urn) });
      }
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
      (r) => !this.deleted.has(r) && (r.pendingDelete || (!this.newByUrn.has(r.urn) && !this.aliased.has(r.urn) && this.oldByUrn.has(r.urn))),
    );
    return dependencyOrder([...this.news, ...kept, ...this.replaced.filter((r) => !this.deleted.has(r))]);
  }
}

/** A resource's URN: a child's type is qualified by its parent's, except under the stack. */
function urnFor(stack: string, project: string, parent: string, type: string, name: string): string {
  const parentType = parent ? parent.split("::")[2] : undefined;
  const qualified = parentType && parentType !== STACK_TYPE ? `${parentType}$${type}` : type;
  return `urn:pulumi:${stack}::${project}::${qualified}::${name}`;
}
