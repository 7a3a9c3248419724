/**
 * The Kasm hardening policy pack: advisory rules for anonymous casting, staging, egress
 * credentials and passwords (one mandatory: a casting config already past its validUntil). Run it
 * with `pulumi preview --policy-pack policy/hardening --policy-pack-config <file>` (see
 * policy/README.md). Pulumi loads the compiled file (`main` in this folder's package.json).
 */
import { PolicyPack } from "@pulumi/policy";
import { PACK_NAME, policies } from "./policies";

new PolicyPack(PACK_NAME, {
  description: "Hardening rules for Kasm resources: anonymous casting, staging capacity, egress credentials, passwords.",
  enforcementLevel: "advisory",
  policies,
});
