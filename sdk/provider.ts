/**
 * The dynamic provider object behind each SDK class.
 *
 * Pulumi serializes this object (with `pulumi.runtime.serializeFunction`) into the state as
 * `__provider`, and the dynamic-provider host deserializes it to call it. So it holds nothing: no
 * client, no secret, no schema. Each method loads the real implementation by package name in
 * the host (`require("pulumi-kasm/provider")`), where `configure` has put the credentials.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { KindName } from "../provider";
import { kasmTypeToken } from "../catalogue/kinds";

/** The type token of a kind: `pulumi-nodejs:dynamic/kasm:<Kind>`, what policy packs match on. */
export function typeToken(kind: KindName): string {
  return kasmTypeToken(kind);
}

/**
 * The serializable provider of one kind. Create one per kind and reuse it: Pulumi caches its serialization.
 *
 * Pulumi's `customTimeouts` resource option has no effect on these resources: the engine sends its
 * value with Create, Update and Delete, but the dynamic-provider host calls `create(inputs)`,
 * `update(id, olds, news)` and `delete(id, props)` without it. Each API call is bounded instead by
 * the `kasm:connectTimeoutMs`, `kasm:requestTimeoutMs`, `kasm:maxRetries`, `kasm:retryBaseDelayMs`
 * and `kasm:retryMaxDelayMs` settings (README.md, "Timeouts").
 */
export function kindProvider(kind: KindName): pulumi.dynamic.ResourceProvider {
  // Only `kind` is captured; `require` runs in the host, resolving the installed package.
  return {
    configure: async (req) => require("pulumi-kasm/provider").configure(req),
    check: async (olds, news) => require("pulumi-kasm/provider").providers[kind].check(olds, news),
    diff: async (id, olds, news) => require("pulumi-kasm/provider").providers[kind].diff(id, olds, news),
    create: async (inputs) => require("pulumi-kasm/provider").providers[kind].create(inputs),
    read: async (id, props) => require("pulumi-kasm/provider").providers[kind].read(id, props),
    update: async (id, olds, news) => require("pulumi-kasm/provider").providers[kind].update(id, olds, news),
    delete: async (id, props) => require("pulumi-kasm/provider").providers[kind].delete(id, props),
  };
}

/** Whether `obj` is a resource of the given kind (by its type token; works across copies of this package). */
export function isKind(obj: unknown, kind: KindName): boolean {
  return typeof obj === "object" && obj !== null && (obj as { __pulumiType?: string }).__pulumiType === typeToken(kind);
}
