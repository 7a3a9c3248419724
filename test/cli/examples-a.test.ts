/** The examples quickstart, casting-kiosk, egress-vpn and workspace-catalogue through the `pulumi` CLI and the test engine (examples.ts). */
import { describeExamples } from "./examples";

describeExamples(["quickstart", "casting-kiosk", "egress-vpn", "workspace-catalogue"]);
