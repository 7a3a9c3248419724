/**
 * The Kasm hardening policy pack: advisory rules for anonymous casting, staging, egress
 * credentials and passwords, and two mandatory ones: a casting config already past its
 * validUntil, and two resources declaring the same Kasm object. Run it
 * with `pulumi preview --policy-pack policy/hardening --policy-pack-config <file>` (see
 * policy/README.md). Pulumi loads the compiled file (`main` in this folder's package.json).
 */
import { PolicyPack } from "@pulumi/policy";
import { PACK_DESCRIPTION, PACK_NAME, policies } from "./policies";

new PolicyPack(PACK_NAME, {
  description: PACK_DESCRIPTION,
  enforcementLevel: "advisory",
  policies,
});
