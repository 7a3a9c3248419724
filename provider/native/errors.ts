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
import { KasmInitializationError } from "../resources/framework/errors";
import type { Props } from "../resources/framework/types";
import { toStruct } from "./properties";

/**
 * A create or update that failed half way, as the native host reports it: the kind's error (the
 * object's id, its properties, the reason) and which of the properties the engine must keep
 * secret, which only the host knows (the secrets the engine sent, and the kind's secret inputs).
 */
export class HalfAppliedFailure extends Error {
  /**
   * @param failure The kind's error.
   * @param secretProperties The properties of `failure` to send wrapped as secrets.
   */
  constructor(
    readonly failure: KasmInitializationError,
    readonly secretProperties: ReadonlySet<string>,
  ) {
    super(failure.message, { cause: failure });
    this.name = "HalfAppliedFailure";
  }
}

/** The gRPC error the engine is answered with for `error`. */
export function grpcError(error: unknown): Partial<grpc.StatusObject> {
  const message = error instanceof Error ? error.message : String(error);
  const metadata = new grpc.Metadata();
  // A kind's half-applied error that reached here unmarked keeps every property it has, none secret but the kind's own.
  const halfApplied = error instanceof KasmInitializationError ? new HalfAppliedFailure(error, new Set()) : error;
  if (halfApplied instanceof HalfAppliedFailure) {
    const { failure, secretProperties } = halfApplied;
    const detail = new provproto.ErrorResourceInitFailed()
      .setId(failure.id)
      .setProperties(toStruct(failure.properties as Props, secretProperties))
      .setReasonsList([...failure.reasons]);
    const any = new anyproto.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusproto.Status().setCode(grpc.status.UNKNOWN).setMessage(message);
    status.addDetails(any);
    // The details travel in this trailer, as the engine (Go's gRPC) reads them.
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}
