/**
 * `kasm.LicenseActivation`: activate a licence with an activation key.
 */
import * as pulumi from "@pulumi/pulumi";
import { isKind, kindProvider } from "./provider";

const provider = kindProvider("LicenseActivation");

/** The arguments of a {@link LicenseActivation}. Every change activates again (replaces). */
export interface LicenseActivationArgs {
  /** The activation key text block; always stored as a secret, and never shown in errors or logs. */
  readonly activationKey: pulumi.Input<string>;
  /** Seats to take from the key's entitlement (a whole number, 1 or more). Default: all that remain. */
  readonly seats?: pulumi.Input<number>;
  /** Informational: whom the licence is attributed to in later reporting. */
  readonly issuedTo?: pulumi.Input<string>;
}

/** The features a licence enables. */
export interface LicenseFeatures {
  readonly autoScaling?: boolean;
  readonly branding?: boolean;
  readonly sessionStaging?: boolean;
  readonly sessionCasting?: boolean;
  readonly logForwarding?: boolean;
  readonly developerApi?: boolean;
  readonly injectSshKeys?: boolean;
  readonly saml?: boolean;
  readonly ldap?: boolean;
  readonly sessionSharing?: boolean;
  readonly loginBanner?: boolean;
  readonly urlCategorization?: boolean;
  readonly usageLimit?: boolean;
  readonly [feature: string]: boolean | undefined;
}

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
export class LicenseActivation extends pulumi.dynamic.Resource {
  /** The licence's id. */
  declare readonly licenseId: pulumi.Output<string>;
  declare readonly activationKey: pulumi.Output<string>;
  declare readonly seats: pulumi.Output<number | undefined>;
  declare readonly issuedTo: pulumi.Output<string | undefined>;
  /** When the licence expires. */
  declare readonly expiration: pulumi.Output<string | null>;
  /** When the licence was issued. */
  declare readonly issuedAt: pulumi.Output<string | null>;
  /** The licence's seats. */
  declare readonly limit: pulumi.Output<number | null>;
  declare readonly isVerified: pulumi.Output<boolean | null>;
  /** Such as `Per Concurrent Session` or `Per Named User`. */
  declare readonly licenseType: pulumi.Output<string | null>;
  declare readonly sku: pulumi.Output<string | null>;
  declare readonly features: pulumi.Output<LicenseFeatures | null>;

  /** Whether `obj` is a LicenseActivation (by type token). */
  static override isInstance(obj: unknown): obj is LicenseActivation {
    return isKind(obj, "LicenseActivation");
  }

  constructor(name: string, args: LicenseActivationArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...args,
      activationKey: pulumi.secret(args.activationKey),
      licenseId: undefined,
      expiration: undefined,
      issuedAt: undefined,
      limit: undefined,
      isVerified: undefined,
      licenseType: undefined,
      sku: undefined,
      features: undefined,
    };
    super(provider, name, props, pulumi.mergeOptions(opts, { additionalSecretOutputs: ["activationKey"] }), "kasm", "LicenseActivation");
  }
}
