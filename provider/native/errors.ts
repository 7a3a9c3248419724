/**
 * Errors of the native provider's methods as gRPC errors. A create or update that failed half way
 * (a `KasmInitializationError`, with the object's id and properties) keeps its object in the state:
 * the engine reads that from an `ErrorResourceInitFailed` detail, as from Pulumi's own providers.
 * The kinds' messages never hold a secret; the kept properties' secrets travel wrapped.
 */
import * as grpc from "@grpc/grpc-js";
import * as anyproto from "google-protobuf/google/protobuf/any_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { KasmInitializationError } from "../resources/kit/errors";
import type { Props } from "../resources/kit/types";
import { toStruct } from "./properties";

/** Which of a half-created object's properties hold a secret, as lifecycle.ts's `keepingSecrets` marks them. */
interface MarkedSecrets {
  readonly secretProperties?: ReadonlySet<string>;
}

/** The gRPC error the engine is answered with for `error`. */
export function grpcError(error: unknown): Partial<grpc.StatusObject> {
  const message = error instanceof Error ? error.message : String(error);
  const metadata = new grpc.Metadata();
  if (error instanceof KasmInitializationError) {
    const detail = new provproto.ErrorResourceInitFailed()
      .setId(error.id)
      .setProperties(toStruct(error.properties as Props, (error as MarkedSecrets).secretProperties))
      .setReasonsList([...error.reasons]);
    const any = new anyproto.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusproto.Status().setCode(grpc.status.UNKNOWN).setMessage(message);
    status.addDetails(any);
    // The details travel in this trailer, as the engine (Go's gRPC) reads them.
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}
