/** The examples licensing, bulk-users and two-installations through the `pulumi` CLI and the test engine (examples.ts). */
import { describeExamples } from "./examples";

describeExamples(["licensing", "bulk-users", "two-installations"]);
