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
 * `import`, `customTimeouts`, `Resource.get` and invokes other than `getResource` are not
 * honoured (`protect`, `retainOnDelete`, `ignoreChanges` and `aliases` are); no dependent replacement, no
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
import { Deployment } from "./deployment";
import type { ProviderHost } from "./host";
import { serveEngineLog } from "./monitor";
import {
  deleteAll,
  errorMessage,
  Recorder,
  stackOutputs,
  startHost,
  stopHost,
  violationError,
  withEnvironment,
  type RunResult,
  type TestEngineOptions,
} from "./engine-run";
import { StateStore, dependencyOrder, type ResourceRecord } from "./state";
import { changedKeys, markSecret, plainProps, secretKeys, type Props } from "./values";

export type { LogLine } from "./monitor";
export type { PolicyPackConfig, PolicyPackSpec, PolicyViolation, EnforcementLevel } from "./policy";
export type { ResourceRecord } from "./state";
export { UNKNOWN } from "./values";
export { pulumiScript, type EngineError, type Operation, type ResourceResult, type RunResult, type TestEngineOptions } from "./engine-run";

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
        return { ...preview, operation: "up", resources: [], errors: [...preview.errors, ...mandatory.map(violationError)], summary: {} };
      }
    }
    return withEnvironment(this.options, (env) => new Deployment(this.options, this.store, env, false).run("up"));
  }

  /** Read every resource from its provider: update the state, and drop what no longer exists. */
  refresh(): Promise<RunResult> {
    return withEnvironment(this.options, async (env) => {
      const records = this.store.load();
      const rec = new Recorder("refresh", this.options.onResource);
      let outputs: Props = {};
      await withHost(this.options, env, rec, async (host) => {
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
      });
      return rec.result("refresh", outputs);
    });
  }

  /** Delete every resource, dependents first; the state keeps what could not be deleted. */
  destroy(): Promise<RunResult> {
    return withEnvironment(this.options, async (env) => {
      const records = this.store.load();
      const rec = new Recorder("destroy", this.options.onResource);
      await withHost(this.options, env, rec, async (host) => {
        const { left } = await deleteAll(host, dependencyOrder(records).reverse(), rec);
        this.store.save(records.filter((r) => left.has(r)));
      });
      return rec.result("destroy", {});
    });
  }
}

/**
 * Run `fn` with a provider host for an operation that runs no program (refresh, destroy), its
 * provider's log lines (warnings) recorded as the engine records them during an up.
 */
async function withHost(options: TestEngineOptions, env: NodeJS.ProcessEnv, rec: Recorder, fn: (host: ProviderHost) => Promise<void>): Promise<void> {
  const engine = await serveEngineLog((line) => line.severity !== "debug" && rec.logs.push(line));
  let host: ProviderHost | undefined;
  try {
    host = await startHost(options, env, engine.address);
    await fn(host);
  } finally {
    await stopHost(host, rec);
    engine.close();
  }
}
