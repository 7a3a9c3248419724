/**
 * Which operations a view of the client may send (`KasmClient.allowingOnly`): the client a
 * resource's lifecycle step is handed refuses, before anything is sent, an operation its kind's
 * calls declaration does not list for that step. The client knows no kinds: what is allowed, and
 * the words of a refusal, come from whoever made the view (`provider/resources/framework/connections.ts`).
 */
import type { OperationName } from "../../permissions/operations";

/** The operations a view may send, and the error for one it may not. */
export interface AllowedCalls {
  /** Whether `operation` may be sent. */
  allows(operation: OperationName): boolean;
  /** The error thrown, before any request, for an operation that may not be sent. */
  refusal(operation: OperationName): Error;
}
