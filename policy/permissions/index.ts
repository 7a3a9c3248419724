/**
 * The Kasm permissions policy pack: does the pipeline's API key hold every permission the stack
 * needs? Run it with `pulumi preview --policy-pack policy/permissions --policy-pack-config <file>`
 * (see policy/README.md). Pulumi loads the compiled file (`main` in this folder's package.json).
 */
import { PolicyPack } from "@pulumi/policy";
import { PACK_DESCRIPTION, PACK_NAME, policies } from "./policies";

new PolicyPack(PACK_NAME, {
  description: PACK_DESCRIPTION,
  enforcementLevel: "advisory",
  policies,
});
