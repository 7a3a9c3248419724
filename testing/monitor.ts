/**
 * The gRPC side of the engine that a Pulumi program talks to: the ResourceMonitor service
 * (`--monitor`) and the Engine service (`--engine`), served on one loopback port. This file only
 * converts between protobuf messages and plain objects; what a registration does is up to the
 * {@link MonitorHandlers} given by the engine.
 */
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as resrpc from "@pulumi/pulumi/proto/resource_grpc_pb";
import * as aliasproto from "@pulumi/pulumi/proto/alias_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import type { Props } from "./values";

/**
 * Features the runtime asks about (`awaitFeatureSupport` in runtime/settings.js). Runtimes from
 * 3.256.0 on first ask GetDeploymentInfo, which this engine does not serve: on its
 * UNIMPLEMENTED answer they ask for these eleven one by one, as every older runtime does. The ones
 * answered false need callbacks into the program (transforms, hooks) or packages this engine does
 * not serve; the program then refuses those options instead of having them silently ignored.
 */
const FEATURES: Record<string, boolean> = {
  secrets: true,
  resourceReferences: true,
  outputValues: true,
  deletedWith: true,
  aliasSpecs: true,
  replaceWith: false,
  transforms: false,
  invokeTransforms: false,
  parameterization: false,
  resourceHooks: false,
  errorHooks: false,
};

/**
 * The message the resource monitor answers an Invoke with: `ResourceInvokeResponse` from
 * @pulumi/pulumi 3.256.0 on, whose gRPC service refuses any other, and the provider protocol's
 * `InvokeResponse` before it, which the older releases' service expects. Both carry the result in
 * `return`.
 */
const InvokeAnswer: typeof resproto.ResourceInvokeResponse =
  resproto.ResourceInvokeResponse ?? (provproto.InvokeResponse as unknown as typeof resproto.ResourceInvokeResponse);

/** A RegisterResource request as plain data. */
export interface Registration {
  readonly type: string;
  readonly name: string;
  readonly parent: string;
  readonly custom: boolean;
  /** The inputs, in wire form (secrets wrapped, unknowns during preview). */
  readonly object: Props;
  readonly provider: string;
  readonly dependencies: string[];
  readonly propertyDependencies: Record<string, string[]>;
  /** `undefined` when the program did not set the option. */
  readonly deleteBeforeReplace?: boolean;
  readonly protect: boolean;
  /** `retainOnDelete`: a delete drops the resource from the state and leaves the object in Kasm. */
  readonly retainOnDelete: boolean;
  readonly ignoreChanges: string[];
  readonly replaceOnChanges: string[];
  readonly additionalSecretOutputs: string[];
  readonly deletedWith: string;
  readonly importId: string;
  /** `aliases`: the names the resource had before, as URNs or as specs of what changed. */
  readonly aliases: AliasSpec[];
  readonly customTimeouts: { create: string; update: string; delete: string };
}

/** What the engine answers to a registration. */
export interface RegistrationAnswer {
  readonly urn: string;
  readonly id: string;
  /** The outputs, in wire form: secrets wrapped, unknowns during preview. */
  readonly object: Props;
  readonly propertyDependencies: Record<string, string[]>;
}

/** A log line the program sent to the engine (`pulumi.log.*`, `console` is not one of them). */
export interface LogLine {
  readonly severity: "debug" | "info" | "warning" | "error";
  readonly message: string;
  /** The resource the line is about, or "". */
  readonly urn: string;
}

/** An answer with a gRPC status code, to throw from a handler. */
export class RpcError extends Error {
  constructor(
    readonly code: grpc.status,
    message: string,
  ) {
    super(message);
  }
}

/** What the engine does with each call. Throw {@link RpcError} to answer with a status code. */
export interface MonitorHandlers {
  registerResource(registration: Registration): Promise<RegistrationAnswer>;
  registerResourceOutputs(urn: string, outputs: Props): void;
  /** Answer an invoke of `tok`, or throw. */
  invoke(tok: string, args: Props): Promise<Props>;
  /** A call this engine does not serve (ReadResource, Call, ...): answer with the error thrown. */
  unsupported(what: string): Error;
  log(line: LogLine): void;
}

const SEVERITY = ["debug", "info", "warning", "error"] as const;

function toStruct(value: Props): structproto.Struct {
  // A Struct cannot hold `undefined`: drop it by a JSON round trip.
  return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
}

function grpcError(error: unknown): Partial<grpc.StatusObject> {
  if (error instanceof RpcError) return { code: error.code, details: error.message };
  return { code: grpc.status.UNKNOWN, details: error instanceof Error ? error.message : String(error) };
}

function readRegistration(req: resproto.RegisterResourceRequest): Registration {
  const propertyDependencies: Record<string, string[]> = {};
  for (const [key, deps] of req.getPropertydependenciesMap().entries()) propertyDependencies[key] = deps.getUrnsList();
  const timeouts = req.getCustomtimeouts();
  return {
    type: req.getType(),
    name: req.getName(),
    parent: req.getParent(),
    custom: req.getCustom(),
    object: (req.getObject()?.toJavaScript() ?? {}) as Props,
    provider: req.getProvider(),
    dependencies: req.getDependenciesList(),
    propertyDependencies,
    deleteBeforeReplace: req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() : undefined,
    protect: req.getProtect() ?? false,
    retainOnDelete: req.getRetainondelete() ?? false,
    ignoreChanges: req.getIgnorechangesList(),
    replaceOnChanges: req.getReplaceonchangesList(),
    additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
    deletedWith: req.getDeletedwith(),
    importId: req.getImportid(),
    aliases: [...req.getAliasurnsList().map((urn) => ({ urn })), ...req.getAliasesList().map(readAlias)],
    customTimeouts: { create: timeouts?.getCreate() ?? "", update: timeouts?.getUpdate() ?? "", delete: timeouts?.getDelete() ?? "" },
  };
}

/**
 * One of a resource's former names: a whole URN, or what differed (a part left out is the
 * resource's own; `noParent` means it had none, `parentUrn` that it had that one).
 */
export type AliasSpec =
  | { readonly urn: string }
  | {
      readonly name?: string;
      readonly type?: string;
      readonly stack?: string;
      readonly project?: string;
      readonly parentUrn?: string;
      readonly noParent?: boolean;
    };

function readAlias(alias: aliasproto.Alias): AliasSpec {
  if (alias.hasUrn()) return { urn: alias.getUrn() };
  const spec = alias.getSpec();
  if (!spec) return {};
  const some = (value: string) => value || undefined;
  return {
    name: some(spec.getName()),
    type: some(spec.getType()),
    stack: some(spec.getStack()),
    project: some(spec.getProject()),
    parentUrn: spec.hasParenturn() ? spec.getParenturn() : undefined,
    noParent: spec.hasNoparent() ? spec.getNoparent() : undefined,
  };
}

/** A running monitor/engine server. */
export interface MonitorServer {
  /** `127.0.0.1:<port>`, for both `--monitor` and `--engine`. */
  readonly address: string;
  /** Stop at once: calls in flight are cancelled. */
  close(): void;
}

/** Serve the ResourceMonitor and Engine services for one program run. */
export async function serveMonitor(handlers: MonitorHandlers): Promise<MonitorServer> {
  const server = new grpc.Server();
  let root = "";
  const monitor: Partial<resrpc.IResourceMonitorServer> = {
    supportsFeature(call, callback) {
      callback(null, new resproto.SupportsFeatureResponse().setHassupport(FEATURES[call.request.getId()] ?? false));
    },
    registerResource(call, callback) {
      handlers.registerResource(readRegistration(call.request)).then(
        (answer) => {
          const res = new resproto.RegisterResourceResponse();
          res.setUrn(answer.urn).setId(answer.id).setObject(toStruct(answer.object)).setResult(resproto.Result.SUCCESS);
          for (const [key, urns] of Object.entries(answer.propertyDependencies))
            res.getPropertydependenciesMap().set(key, new resproto.RegisterResourceResponse.PropertyDependencies().setUrnsList(urns));
          callback(null, res);
        },
        (error) => callback(grpcError(error), null),
      );
    },
    registerResourceOutputs(call, callback) {
      handlers.registerResourceOutputs(call.request.getUrn(), (call.request.getOutputs()?.toJavaScript() ?? {}) as Props);
      callback(null, new emptyproto.Empty());
    },
    invoke(call, callback) {
      handlers.invoke(call.request.getTok(), (call.request.getArgs()?.toJavaScript() ?? {}) as Props).then(
        (ret) => callback(null, new InvokeAnswer().setReturn(toStruct(ret))),
        (error) => callback(grpcError(error), null),
      );
    },
    // `Resource.get` and method calls: not served. An UNIMPLEMENTED answer would leave the program
    // hanging for most of a minute before it exits, so the engine ends the run instead.
    readResource(_call, callback) {
      callback(grpcError(handlers.unsupported("ReadResource (`Resource.get`)")), null);
    },
    call(call, callback) {
      callback(grpcError(handlers.unsupported(`Call (${call.request.getTok()})`)), null);
    },
    // The program calls this from its `beforeExit` handler; answering lets it exit.
    signalAndWaitForShutdown(_call, callback) {
      callback(null, new emptyproto.Empty());
    },
  };
  const engine: Partial<engrpc.IEngineServer> = {
    log: logService(handlers.log),
    getRootResource(_call, callback) {
      callback(null, new engproto.GetRootResourceResponse().setUrn(root));
    },
    setRootResource(call, callback) {
      root = call.request.getUrn();
      callback(null, new engproto.SetRootResourceResponse());
    },
  };
  // Methods left out (transforms, hooks, packages, ...) answer UNIMPLEMENTED; the program never
  // calls them, as the features they serve are answered false above.
  server.addService(resrpc.ResourceMonitorService, monitor as resrpc.IResourceMonitorServer);
  server.addService(engrpc.EngineService, engine as engrpc.IEngineServer);
  return listen(server);
}

/**
 * Serve only the Engine service's `Log`, for an operation that runs no program (refresh,
 * destroy): the provider host logs its warnings there, as it does to the engine under the CLI.
 */
export async function serveEngineLog(log: (line: LogLine) => void): Promise<MonitorServer> {
  const server = new grpc.Server();
  server.addService(engrpc.EngineService, { log: logService(log) } as Partial<engrpc.IEngineServer> as engrpc.IEngineServer);
  return listen(server);
}

/** The Engine service's `Log`: each line to `log`. */
function logService(log: (line: LogLine) => void): engrpc.IEngineServer["log"] {
  return (call, callback) => {
    const req = call.request;
    log({ severity: SEVERITY[req.getSeverity()] ?? "info", message: req.getMessage(), urn: req.getUrn() });
    callback(null, new emptyproto.Empty());
  };
}

async function listen(server: grpc.Server): Promise<MonitorServer> {
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))),
  );
  return { address: `127.0.0.1:${port}`, close: () => server.forceShutdown() };
}
