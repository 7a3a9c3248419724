/**
 * The native provider's gRPC server: Pulumi's ResourceProvider service, from the definitions in
 * `@pulumi/pulumi/proto`, over the kinds' providers.
 *
 * Resources are served by lifecycle.ts, the provider instance's own methods by instance.ts, and
 * the lookups (Invoke: `kasm:index:getZone`, `kasm:index:getUsers`, ...) by invoke.ts, over the
 * lookups' one implementation in provider/lookups, on the same installation as the resources.
 *
 * Not `@pulumi/pulumi/provider`'s server: that one answers Configure without reading the settings
 * and without `supportsPreview`, and never passes `preview` to create or update. Handshake is not
 * served (an engine that gets it assumes `supportsPreview` before Configure has said so); methods
 * not served here (Call, Construct, Parameterize, List) answer UNIMPLEMENTED, grpc-js's default
 * for a method a service leaves out.
 */
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { KindName } from "..";
import { ConnectionRegistry } from "../runtime";
import type { Kind } from "../resources/framework/types";
import { grpcError } from "./errors";
import { instanceMethods, type ConfiguredState } from "./instance";
import { invokeMethod } from "./invoke";
import { lifecycle } from "./lifecycle";
import { packageSchema } from "./schema";

/** What the server is built from. */
export interface NativeServerOptions {
  /** The plugin's version (package.json's), answered by GetPluginInfo and written into the schema. */
  readonly version: string;
  /** Every kind, by name: its provider and its manifest (the registry's `kinds`). */
  readonly kinds: Readonly<Record<KindName, Kind>>;
  /** The engine's address, the plugin's first argument: where diagnostics go. */
  readonly engineAddress: string | undefined;
  /** The environment the settings fall back to. Default: `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
}

/** A running server, and how to stop it. */
export interface NativeServer {
  readonly port: number;
  /** Stop serving and close the installation's connections. */
  close(): Promise<void>;
}

/** A gRPC unary handler over an async method: its result answers, its error becomes a gRPC error. */
function unary<Req, Res>(method: (request: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    method(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => callback(grpcError(error)),
    );
  };
}

/** Serve the provider on a loopback port the system picks. */
export async function serveNativeProvider(options: NativeServerOptions): Promise<NativeServer> {
  // One process serves one provider instance: one installation, the default connection's names.
  const connections = new ConnectionRegistry(() => undefined, options.env);
  const state: ConfiguredState = { settingsKnown: false };
  let engineAddress = options.engineAddress;
  const instance = instanceMethods(connections, state);
  const resources = lifecycle({
    kinds: options.kinds,
    connections,
    engineAddress: () => engineAddress,
    settingsKnown: () => state.settingsKnown,
    explicitProvider: () => state.explicitProvider,
  });
  const invoke = invokeMethod({ connections, engineAddress: () => engineAddress, settingsKnown: () => state.settingsKnown });
  const schema = packageSchema(options.version, options.kinds);

  const implementation: Partial<provrpc.IResourceProviderServer> = {
    getPluginInfo: unary(async () => new plugproto.PluginInfo().setVersion(options.version)),
    getSchema: unary(async (req: provproto.GetSchemaRequest) => {
      if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
      return new provproto.GetSchemaResponse().setSchema(schema);
    }),
    checkConfig: unary(instance.checkConfig),
    diffConfig: unary(instance.diffConfig),
    configure: unary(instance.configure),
    check: unary(resources.check),
    diff: unary(resources.diff),
    create: unary(resources.create),
    read: unary(resources.read),
    update: unary(resources.update),
    invoke: unary(invoke),
    delete: unary(async (req: provproto.DeleteRequest) => {
      await resources.delete(req);
      return new emptyproto.Empty();
    }),
    // Nothing runs in the background to stop: each method ends with its own requests.
    cancel: unary(async () => new emptyproto.Empty()),
    attach: unary(async (req: plugproto.PluginAttach) => {
      engineAddress = req.getAddress();
      return new emptyproto.Empty();
    }),
  };

  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(provrpc.ResourceProviderService, implementation as provrpc.IResourceProviderServer);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      await connections.close();
    },
  };
}
