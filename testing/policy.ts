/**
 * Policy packs, run the way `pulumi preview --policy-pack DIR` runs them: Pulumi's analyzer runner
 * (`@pulumi/pulumi/cmd/run-policy-pack <engine-address> .`, in the pack's folder) prints its port,
 * then answers GetAnalyzerInfo, Configure, ConfigureStack, Analyze (one resource) and AnalyzeStack
 * (all resources).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as anrpc from "@pulumi/pulumi/proto/analyzer_grpc_pb";
import * as anproto from "@pulumi/pulumi/proto/analyzer_pb";
import type { ResourceRecord } from "./state";
import { withoutInternal, type Props } from "./values";

const RUNNER = require.resolve("@pulumi/pulumi/cmd/run-policy-pack");

/** An enforcement level, as policies name it. */
export type EnforcementLevel = "advisory" | "mandatory" | "remediate" | "disabled";

const LEVELS: EnforcementLevel[] = ["advisory", "mandatory", "disabled", "remediate"]; // by proto enum value

/**
 * The configuration of a pack, as in a `--policy-pack-config` file: per policy name (or `all`), an
 * enforcement level, or an object with `enforcementLevel` and the policy's own properties.
 */
export type PolicyPackConfig = Record<string, EnforcementLevel | ({ enforcementLevel?: EnforcementLevel } & Record<string, unknown>)>;

/** A pack to run: its folder (with package.json, PulumiPolicy.yaml and the pack's program) and configuration. */
export interface PolicyPackSpec {
  readonly dir: string;
  readonly config?: PolicyPackConfig;
}

/** A policy violation. */
export interface PolicyViolation {
  readonly policyPack: string;
  readonly policyName: string;
  readonly enforcementLevel: EnforcementLevel;
  readonly message: string;
  /** The resource, or "" for a stack policy that named none. */
  readonly urn: string;
}

/** What the analyzer gets about one resource. */
export interface AnalyzedResource {
  readonly urn: string;
  readonly type: string;
  readonly name: string;
  /** Inputs (Analyze) or outputs (AnalyzeStack) in wire form. */
  readonly properties: Props;
  readonly record: Pick<ResourceRecord, "parent" | "dependencies" | "propertyDependencies" | "additionalSecretOutputs" | "custom">;
  readonly protect?: boolean;
  readonly ignoreChanges?: string[];
  readonly deleteBeforeReplace?: boolean;
}

function struct(value: Props): structproto.Struct {
  return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
}

/** The options message every request must carry (the policy SDK refuses a request without one). */
function options(r: AnalyzedResource): anproto.AnalyzerResourceOptions {
  const opts = new anproto.AnalyzerResourceOptions()
    .setProtect(r.protect ?? false)
    .setIgnorechangesList(r.ignoreChanges ?? [])
    .setAdditionalsecretoutputsList(r.record.additionalSecretOutputs)
    .setCustomtimeouts(new anproto.AnalyzerResourceOptions.CustomTimeouts())
    .setParent(r.record.parent);
  if (r.deleteBeforeReplace !== undefined) opts.setDeletebeforereplacedefined(true).setDeletebeforereplace(r.deleteBeforeReplace);
  return opts;
}

/** Dynamic resources run under the default `pulumi-nodejs` provider; policies may look at it. */
function providerOf(r: AnalyzedResource, stackPrefix: string): anproto.AnalyzerProviderResource | undefined {
  if (!r.record.custom) return undefined;
  return new anproto.AnalyzerProviderResource()
    .setType("pulumi:providers:pulumi-nodejs")
    .setName("default")
    .setUrn(`${stackPrefix}pulumi:providers:pulumi-nodejs::default`)
    .setProperties(struct({}));
}

/** A running policy pack. */
export class PolicyPackRunner {
  private constructor(
    private readonly child: ChildProcess,
    private readonly client: anrpc.AnalyzerClient,
    readonly name: string,
    private readonly stackPrefix: string,
    readonly stderr: string[],
  ) {}

  /**
   * Start the pack in `spec.dir` and configure it. `engineAddress` is passed as Pulumi passes it;
   * `stackPrefix` is `urn:pulumi:<stack>::<project>::`.
   */
  static async start(
    spec: PolicyPackSpec,
    context: { engineAddress: string; env: NodeJS.ProcessEnv; stack: string; project: string; dryRun: boolean; stackPrefix: string },
  ): Promise<PolicyPackRunner> {
    const child = spawn(process.execPath, [RUNNER, context.engineAddress, "."], {
      cwd: spec.dir,
      env: context.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stderr: string[] = [];
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk));
    const port = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.trim()));
      child.once("exit", (code) => reject(new Error(`policy pack ${spec.dir} exited with ${code}: ${stderr.join("")}`)));
    });
    const client = new anrpc.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const call = <Req, Res>(method: string, req: Req) =>
      new Promise<Res>((resolve, reject) => (client as any)[method](req, (e: Error | null, r: Res) => (e ? reject(e) : resolve(r))));

    const info = await call<emptyproto.Empty, anproto.AnalyzerInfo>("getAnalyzerInfo", new emptyproto.Empty());
    const configure = new anproto.ConfigureAnalyzerRequest();
    for (const policy of info.getPoliciesList()) {
      const given = spec.config?.[policy.getName()] ?? spec.config?.all;
      const { enforcementLevel, ...properties } = typeof given === "string" ? { enforcementLevel: given } : (given ?? {});
      // The CLI fills in the defaults of the policy's config schema; do the same for top-level properties.
      const schema = (policy.getConfigschema()?.getProperties()?.toJavaScript() ?? {}) as Record<string, { default?: unknown }>;
      const defaults = Object.fromEntries(
        Object.entries(schema)
          .filter(([, s]) => s && s.default !== undefined)
          .map(([k, s]) => [k, s.default]),
      );
      const level = enforcementLevel ? LEVELS.indexOf(enforcementLevel) : policy.getEnforcementlevel();
      configure
        .getPolicyconfigMap()
        .set(
          policy.getName(),
          new anproto.PolicyConfig().setEnforcementlevel(level as anproto.EnforcementLevel).setProperties(struct({ ...defaults, ...properties })),
        );
    }
    await call("configure", configure);
    await call(
      "configureStack",
      new anproto.AnalyzerStackConfigureRequest().setStack(context.stack).setProject(context.project).setDryRun(context.dryRun),
    ).catch(() => undefined); // older packs do not implement it
    return new PolicyPackRunner(child, client, `${info.getName()}@v${info.getVersion()}`, context.stackPrefix, stderr);
  }

  private unary<Req, Res>(method: string, req: Req): Promise<Res> {
    return new Promise((resolve, reject) =>
      (this.client as any)[method](req, (e: grpc.ServiceError | null, r: Res) =>
        e ? reject(new Error(`policy pack ${this.name}: ${e.details || e.message}`)) : resolve(r),
      ),
    );
  }

  private violations(res: anproto.AnalyzeResponse): PolicyViolation[] {
    return res.getDiagnosticsList().map((d) => ({
      policyPack: `${d.getPolicypackname()}@v${d.getPolicypackversion()}`,
      policyName: d.getPolicyname(),
      enforcementLevel: LEVELS[d.getEnforcementlevel()] ?? "advisory",
      message: d.getMessage() || d.getDescription(),
      urn: d.getUrn(),
    }));
  }

  /** Analyze one resource's inputs; the engine strips `__`-prefixed properties first, as Pulumi does. */
  async analyze(r: AnalyzedResource): Promise<PolicyViolation[]> {
    const req = new anproto.AnalyzeRequest()
      .setType(r.type)
      .setName(r.name)
      .setUrn(r.urn)
      .setProperties(struct(withoutInternal(r.properties)))
      .setOptions(options(r));
    const provider = providerOf(r, this.stackPrefix);
    if (provider) req.setProvider(provider);
    const found = this.violations(await this.unary("analyze", req));
    // A resource policy's diagnostic has no URN of its own: it is about the resource analyzed.
    return found.map((v) => ({ ...v, urn: v.urn || r.urn }));
  }

  /** Analyze the whole stack (its resources' outputs). */
  async analyzeStack(resources: readonly AnalyzedResource[]): Promise<PolicyViolation[]> {
    const req = new anproto.AnalyzeStackRequest().setResourcesList(
      resources.map((r) => {
        const res = new anproto.AnalyzerResource()
          .setType(r.type)
          .setName(r.name)
          .setUrn(r.urn)
          .setProperties(struct(withoutInternal(r.properties)))
          .setOptions(options(r))
          .setParent(r.record.parent)
          .setDependenciesList(r.record.dependencies);
        for (const [key, urns] of Object.entries(r.record.propertyDependencies))
          res.getPropertydependenciesMap().set(key, new anproto.AnalyzerPropertyDependencies().setUrnsList(urns));
        const provider = providerOf(r, this.stackPrefix);
        if (provider) res.setProvider(provider);
        return res;
      }),
    );
    return this.violations(await this.unary("analyzeStack", req));
  }

  /** Stop the pack's process. */
  async stop(): Promise<void> {
    this.client.close();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once("exit", resolve));
      this.child.kill("SIGTERM");
      await exited;
    }
  }
}
