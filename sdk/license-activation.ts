/**
 * `kasm.LicenseActivation`: activate a licence with an activation key.
 */
import * as pulumi from "@pulumi/pulumi";
import { KasmResource, type ComputedOutputs, type InputOutputs } from "./provider";
import { SECRET_INPUTS } from "../catalogue/kinds";
import type { ConnectionArgs } from "./connection";
import type { LicenseActivationOutputs, LicenseFeatures } from "../provider/resources/license-activation";

/** The arguments of a {@link LicenseActivation}. Every change activates again (replaces). */
export interface LicenseActivationArgs extends ConnectionArgs {
  /** The activation key text block; always stored as a secret, and never shown in errors or logs. */
  readonly activationKey: pulumi.Input<string>;
  /** Seats to take from the key's entitlement (a whole number, 1 or more). Default: all that remain. */
  readonly seats?: pulumi.Input<number>;
  /** Informational: whom the licence is attributed to in later reporting. */
  readonly issuedTo?: pulumi.Input<string>;
}

/** The features a licence enables (the provider's type: its outputs are what this declares). */
export type { LicenseFeatures };

/**
 * One activation of a Kasm licence (the `activate` operation). Any change to the inputs activates
 * again, which takes seats from the entitlement again.
 *
 * Kasm has no operation to read or remove a licence: refresh keeps the last known state, and
 * destroying the resource only forgets it (the licence stays applied; the provider warns).
 *
 * @example
 * ```ts
 * const licence = new kasm.LicenseActivation("prod", { activationKey: cfg.requireSecret("activationKey"), seats: 50 });
 * ```
 */
export class LicenseActivation extends KasmResource<LicenseActivationArgs, LicenseActivationOutputs> {
  protected static override readonly kind = "LicenseActivation";

  constructor(name: string, args: LicenseActivationArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts, {
      computed: { licenseId: true, expiration: true, issuedAt: true, limit: true, isVerified: true, licenseType: true, sku: true, features: true },
      secrets: SECRET_INPUTS.LicenseActivation,
    });
  }
}

/** The outputs of a {@link LicenseActivation}: computed ({@link LicenseActivationOutputs}) and mirroring its arguments ({@link LicenseActivationArgs}). */
export interface LicenseActivation extends ComputedOutputs<LicenseActivationOutputs>, InputOutputs<LicenseActivationArgs> {}
