/**
 * `kasm.ServerDrain`: hold a server's draining flag.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type InputOutputs } from "./provider";
import type { ConnectionArgs } from "./connection";

/** The arguments of a {@link ServerDrain}. */
export interface ServerDrainArgs extends ConnectionArgs {
  /** The server (32 hex digits or a hyphenated UUID). Another server replaces the resource. */
  readonly serverId: pulumi.Input<string>;
  /** Whether the server is draining (takes no new sessions). Default: true. */
  readonly draining?: pulumi.Input<boolean>;
}

/**
 * A server's draining flag, held at the declared value. Destroying the resource sets the server
 * back to not draining (whatever it was before), and succeeds when the server no longer exists.
 * Declare at most one per server.
 *
 * Refresh and drift: Kasm's API documents no draining flag in the server record it returns. When
 * the record carries one (`is_draining`), refresh reads it and shows a drain ended in the Kasm UI
 * as drift. When it does not, refresh keeps the declared value and warns that drift cannot be
 * seen, once per resource and refresh.
 *
 * @example
 * ```ts
 * // Drain the server during maintenance; remove the resource to put it back in service.
 * const drain = new kasm.ServerDrain("ws-07", { serverId: "6e1a5c0c1f4b4f6a9f5235e1c0a2b3d4" });
 * ```
 */
export class ServerDrain extends KasmResource<ServerDrainArgs> {
  protected static override readonly kind = "ServerDrain";

  /** Whether the server is draining: the declared value, true when left out (never undefined). */
  declare readonly draining: pulumi.Output<boolean>;

  constructor(name: string, args: ServerDrainArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}

/** The outputs of a {@link ServerDrain} that mirror its arguments (see {@link ServerDrainArgs}). */
export interface ServerDrain extends InputOutputs<ServerDrainArgs> {}
