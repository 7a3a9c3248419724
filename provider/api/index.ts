/**
 * The Kasm Workspaces Developer API client.
 *
 * - {@link createKasmClient} / {@link KasmClient}: configuration (options or `KASM_*` environment
 *   variables), one keep-alive connection pool, retries, TLS, and every operation bound by area
 *   (`client.users.createUser(...)`, `client.egress.getEgressProviders(...)`, ...).
 * - The same operations as plain functions taking the client first, by area: `users.createUser(client, ...)`.
 * - Errors: {@link KasmApiError} and its subclasses, one per kind of failure.
 * - Schemas: the zod schema and type of every request and record, by area.
 * - Records: the one mapping between the API's snake_case fields and camelCase ({@link camelized},
 *   {@link fromApiFields}, {@link toApiBody}).
 *
 * @example
 * ```ts
 * import { createKasmClient, KasmPermissionError } from "./provider/api";
 *
 * const client = createKasmClient();
 * try {
 *   const images = await client.images.getImages();
 * } catch (error) {
 *   if (error instanceof KasmPermissionError) console.error(error.message); // names what to grant
 *   throw error;
 * } finally {
 *   await client.close();
 * }
 * ```
 */
export { KasmClient, createKasmClient, type BoundOperations, type KasmAreas } from "./client";
export {
  DEFAULTS,
  ENV_VARS,
  type KasmClientOptions,
  type KasmLogger,
  HEALTH_DEFAULTS,
  KasmHealthGateError,
  waitForHealthy,
  type HealthyResult,
  type WaitForHealthyOptions,
} from "./config";
export * from "./errors";
export {
  camelized,
  fromApiFields,
  toApiBody,
  toCamelCase,
  toSnakeCase,
  type CamelCase,
  type CamelField,
  type CamelKeyed,
  type Camelized,
  type SnakeCase,
  REDACTED,
  SECRET_FIELD_NAMES,
  isSecretFieldName,
  redact,
  scrubText,
  type LenientReads,
} from "./records";
export { REPEAT_MODES, RetryPolicy, type RepeatMode, type RetryPolicyOptions } from "./retry";
export type { CallOptions, CsvUpload, KasmApi, KasmTransport } from "./transport";

export * as casting from "./operations/casting";
export * as egress from "./operations/egress";
export * as groups from "./operations/groups";
export * as images from "./operations/images";
export * as licenses from "./operations/licenses";
export * as login from "./operations/login";
export * as recordings from "./operations/recordings";
export * as servers from "./operations/servers";
export * as sessions from "./operations/sessions";
export * as staging from "./operations/staging";
export * as users from "./operations/users";
export * as zones from "./operations/zones";

export * from "./schemas/batch";
export * from "./schemas/casting";
export * from "./schemas/common";
export * from "./schemas/egress";
export * from "./schemas/groups";
export * from "./schemas/images";
export * from "./schemas/licenses";
export * from "./schemas/login";
export * from "./schemas/recordings";
export * from "./schemas/servers";
export * from "./schemas/sessions";
export * from "./schemas/staging";
export * from "./schemas/users";
export * from "./schemas/zones";
