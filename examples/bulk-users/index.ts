/**
 * Bulk users: users.csv (1,000 rows in Kasm's batch import format: username, first_name,
 * last_name, force_password_reset, group_1) becomes one `UserSet`, each user in the group its
 * `group_1` column names and made to choose a password at the first sign-in.
 *
 * Configuration: kasm:baseUrl, kasm:apiKey, kasm:apiKeySecret (secret); usersCsv (path of the
 * CSV, default users.csv beside this program).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as kasm from "pulumi-kasm";

const config = new pulumi.Config();
const csvPath = path.resolve(__dirname, config.get("usersCsv") ?? "users.csv");

// One resource for the whole file: Kasm creates the users in one batch request and a refresh
// reads them back a page at a time, where 1,000 `User` resources make 1,000 requests each time.
const team = new kasm.UserSet("team", { csv: readFileSync(csvPath, "utf8") });

export const userCount = team.count;
