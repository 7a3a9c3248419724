/**
 * The native provider's gRPC server in the test's process, driven as the engine drives it: a
 * client for its ResourceProvider service, one promised call per method, and the protobuf values
 * the calls take.
 */
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { kinds } from "../../provider";
import { serveNativeProvider } from "../../provider/native/server";

/** A JavaScript object as the protobuf Struct the provider's methods take. */
export function struct(value: Record<string, unknown>): structproto.Struct {
  return structproto.Struct.fromJavaScript(value as Record<string, structproto.JavaScriptValue>);
}

/** A served native provider and a client of it. */
export interface NativeProviderClient {
  /** One unary call of the service's `method` (`configure`, `check`, `read`, ...), promised. */
  call<Req, Res>(method: string, request: Req): Promise<Res>;
  /** Close the client and stop the server. */
  close(): Promise<void>;
}

/** Serve the native provider over every kind, as version `version`, and connect a client to it. */
export async function startNativeProvider(version = "1.2.3"): Promise<NativeProviderClient> {
  const server = await serveNativeProvider({ version, kinds, engineAddress: undefined, env: {} });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
  const methods = client as unknown as Record<string, (request: unknown, callback: (error: Error | null, response: unknown) => void) => void>;
  return {
    call: <Req, Res>(method: string, request: Req) =>
      new Promise<Res>((resolve, reject) => methods[method].call(client, request, (error, response) => (error ? reject(error) : resolve(response as Res)))),
    close: async () => {
      client.close();
      await server.close();
    },
  };
}
