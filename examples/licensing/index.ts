/**
 * Licensing: activate part of a partner entitlement on this deployment. Each deployment is a
 * stack of this program with its own `seats` and `issuedTo`; together they share the entitlement.
 *
 *   pulumi config set --secret activationKey "$(cat activation-key.txt)"
 *   pulumi config set seats 60      # stack branch-a
 *   pulumi config set issuedTo "Branch A"
 *
 * Kasm has no operation to remove a license: destroying this stack forgets the activation (with a
 * warning) and the seats stay taken.
 */
import * as pulumi from "@pulumi/pulumi";
import * as kasm from "pulumi-kasm";

const config = new pulumi.Config();

const activation = new kasm.LicenseActivation("seats", {
  activationKey: config.requireSecret("activationKey"),
  seats: config.requireNumber("seats"),
  issuedTo: config.require("issuedTo"),
});

export const licenseId = activation.licenseId;
export const seatLimit = activation.limit;
export const licenseType = activation.licenseType;
