/** The examples quickstart, casting-kiosk and egress-vpn through the `pulumi` CLI and the test engine (examples.ts). */
import { describeExamples } from "./examples";

describeExamples(["quickstart", "casting-kiosk", "egress-vpn"]);
