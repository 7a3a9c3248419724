/**
 * Drive a policy pack over Pulumi's Analyzer gRPC protocol, as the engine does: GetAnalyzerInfo,
 * Configure (every policy's enforcement level and config), Analyze (one resource, with its
 * options) and AnalyzeStack (every resource, with dependencies).
 *
 * Also a minimal Engine service, whose address the policy-pack runner takes as its first
 * argument, as the engine starts it.
 */
import path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as AnalyzerPb from "@pulumi/pulumi/proto/analyzer_pb";
import { expect, vi } from "vitest";
import { policyResources, providerOf, type FixtureResource } from "./helpers";

// One copy of grpc-js and of the generated code: the ones @pulumi/pulumi (and so @pulumi/policy) use.
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] })) as typeof grpcTypes;
const analyzerPb = require("@pulumi/pulumi/proto/analyzer_pb") as typeof AnalyzerPb;
const analyzerGrpc = require("@pulumi/pulumi/proto/analyzer_grpc_pb");
const engineGrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
const enginePb = require("@pulumi/pulumi/proto/engine_pb");
const structPb = require("google-protobuf/google/protobuf/struct_pb");
const emptyPb = require("google-protobuf/google/protobuf/empty_pb");

export type Level = "advisory" | "mandatory" | "disabled" | "remediate";
const LEVELS: Level[] = ["advisory", "mandatory", "disabled", "remediate"];

/** A value the engine marks secret, as it travels on the wire. */
export function secret(value: unknown): Record<string, unknown> {
  return { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value };
}

/** One diagnostic of an Analyze or AnalyzeStack answer. */
export interface Diagnostic {
  readonly policy: string;
  readonly level: Level;
  readonly message: string;
  readonly urn: string;
}

/** One policy as GetAnalyzerInfo describes it. */
export interface PolicyDescription {
  readonly name: string;
  readonly level: Level;
  readonly type: "resource" | "stack";
  readonly configProperties: string[];
  readonly required: string[];
}

/** JSON for a Struct: no undefined values. */
function struct(value: Record<string, unknown>) {
  return structPb.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
}

function options(): AnalyzerPb.AnalyzerResourceOptions {
  const opts = new analyzerPb.AnalyzerResourceOptions();
  opts.setProtect(false);
  opts.setCustomtimeouts(new analyzerPb.AnalyzerResourceOptions.CustomTimeouts());
  return opts;
}

/** The provider of a resource on the wire, as the engine sends it (its properties with secrets marked as given). */
function providerMessage(resource: FixtureResource): AnalyzerPb.AnalyzerProviderResource | undefined {
  const provider = providerOf(resource);
  if (provider === undefined) return undefined;
  const message = new analyzerPb.AnalyzerProviderResource();
  message.setType(provider.type);
  message.setName(provider.name);
  message.setUrn(provider.urn);
  message.setProperties(struct(provider.props));
  return message;
}

function call<T>(client: any, method: string, request: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    client[method](request, (error: Error | null, response: T) => (error ? reject(error) : resolve(response)));
  });
}

function diagnostics(response: AnalyzerPb.AnalyzeResponse): Diagnostic[] {
  return response.getDiagnosticsList().map((d) => ({
    policy: d.getPolicyname(),
    level: LEVELS[d.getEnforcementlevel()],
    message: d.getMessage(),
    urn: d.getUrn(),
  }));
}

/** A client of one policy pack's analyzer. */
export class AnalyzerDriver {
  private defaults?: Map<string, Level>;

  private constructor(private readonly client: any) {}

  static connect(address: string): AnalyzerDriver {
    return new AnalyzerDriver(new analyzerGrpc.AnalyzerClient(address, grpc.credentials.createInsecure()));
  }

  async info(): Promise<{ name: string; version: string; policies: PolicyDescription[] }> {
    const info = await call<AnalyzerPb.AnalyzerInfo>(this.client, "getAnalyzerInfo", new emptyPb.Empty());
    const policies = info.getPoliciesList().map((p) => ({
      name: p.getName(),
      level: LEVELS[p.getEnforcementlevel()],
      type: p.getPolicyType() === analyzerPb.PolicyType.POLICY_TYPE_STACK ? ("stack" as const) : ("resource" as const),
      configProperties: Object.keys(p.getConfigschema()?.getProperties()?.toJavaScript() ?? {}),
      required: p.getConfigschema()?.getRequiredList() ?? [],
    }));
    this.defaults = new Map(policies.map((p) => [p.name, p.level]));
    return { name: info.getName(), version: info.getVersion(), policies };
  }

  /**
   * Configure as the engine does: every policy gets an entry, with its level (the given one, else
   * its default) and its config properties.
   */
  async configure(config: Record<string, { enforcementLevel?: Level } & Record<string, unknown>>): Promise<void> {
    if (!this.defaults) await this.info();
    const request = new analyzerPb.ConfigureAnalyzerRequest();
    for (const [name, level] of this.defaults!) {
      const { enforcementLevel, ...properties } = config[name] ?? {};
      const entry = new analyzerPb.PolicyConfig();
      entry.setEnforcementlevel(LEVELS.indexOf(enforcementLevel ?? level));
      entry.setProperties(struct(properties));
      request.getPolicyconfigMap().set(name, entry);
    }
    await call(this.client, "configure", request);
  }

  async analyze(resource: FixtureResource): Promise<Diagnostic[]> {
    const [r] = policyResources([resource]);
    const request = new analyzerPb.AnalyzeRequest();
    request.setType(r.type);
    request.setName(r.name);
    request.setUrn(r.urn);
    request.setProperties(struct(resource.props));
    request.setOptions(options());
    request.setProvider(providerMessage(resource));
    return diagnostics(await call(this.client, "analyze", request));
  }

  async analyzeStack(resources: readonly FixtureResource[]): Promise<Diagnostic[]> {
    const built = policyResources(resources);
    const request = new analyzerPb.AnalyzeStackRequest();
    request.setResourcesList(
      built.map((r, i) => {
        const resource = new analyzerPb.AnalyzerResource();
        resource.setType(r.type);
        resource.setName(r.name);
        resource.setUrn(r.urn);
        resource.setProperties(struct(resources[i].props));
        resource.setOptions(options());
        resource.setProvider(providerMessage(resources[i]));
        resource.setDependenciesList(r.dependencies.map((d) => d.urn));
        for (const [property, deps] of Object.entries(r.propertyDependencies)) {
          const entry = new analyzerPb.AnalyzerPropertyDependencies();
          entry.setUrnsList(deps.map((d) => d.urn));
          resource.getPropertydependenciesMap().set(property, entry);
        }
        return resource;
      }),
    );
    return diagnostics(await call(this.client, "analyzeStack", request));
  }

  close(): void {
    this.client.close();
  }
}

/** A minimal Engine service: it records Log calls and answers the rest. */
export async function startEngine(): Promise<{ address: string; logs: string[]; stop(): Promise<void> }> {
  const logs: string[] = [];
  const server = new grpc.Server();
  server.addService(engineGrpc.EngineService, {
    log: (callObj: any, callback: any) => {
      logs.push(callObj.request.getMessage());
      callback(null, new emptyPb.Empty());
    },
    getRootResource: (_: unknown, callback: any) => callback(null, new enginePb.GetRootResourceResponse()),
    setRootResource: (_: unknown, callback: any) => callback(null, new enginePb.SetRootResourceResponse()),
    startDebugging: (_: unknown, callback: any) => callback(null, new emptyPb.Empty()),
    requirePulumiVersion: (_: unknown, callback: any) => callback(null, new enginePb.RequirePulumiVersionResponse()),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    address: `127.0.0.1:${port}`,
    logs,
    stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}

/**
 * Serve a pack's policies with @pulumi/policy's own gRPC server, in this process (the SDK serves
 * one pack per process), and connect a driver to it. The server prints its port on stdout: it is
 * read from there, as the engine reads it.
 */
export async function servePack(packName: string, version: string, policies: unknown[]): Promise<AnalyzerDriver> {
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  try {
    const { serve } = require("@pulumi/policy/server");
    serve(packName, version, "advisory", { policies }, undefined);
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith(expect.stringMatching(/^\d+$/)), { timeout: 10_000 });
    const port = log.mock.calls.map((c) => String(c[0])).find((line) => /^\d+$/.test(line));
    return AnalyzerDriver.connect(`127.0.0.1:${port}`);
  } finally {
    log.mockRestore();
  }
}
