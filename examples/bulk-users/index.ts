/**
 * Bulk users: every row of users.csv becomes a Kasm user and a membership of its team's group.
 *
 * Configuration: kasm:baseUrl, kasm:apiKey, kasm:apiKeySecret (secret); groupIds (JSON object
 * mapping each team of the CSV to its group id in Kasm); usersCsv (path, default users.csv here).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { parse } from "csv-parse/sync";
import * as kasm from "pulumi-kasm";

const config = new pulumi.Config();
const groupIds: Record<string, string> = config.getObject("groupIds") ?? {
  Engineering: "b0000000000040000000000000000001",
  Support: "b0000000000040000000000000000002",
  Sales: "b0000000000040000000000000000003",
  Finance: "b0000000000040000000000000000004",
};

interface Row {
  username: string;
  first_name: string;
  last_name: string;
  team: string;
}

const csvPath = config.get("usersCsv") ?? path.join(__dirname, "users.csv");
const rows = parse(readFileSync(csvPath, "utf8"), { columns: true, skip_empty_lines: true, trim: true }) as Row[];

for (const row of rows) {
  const groupId = groupIds[row.team];
  if (!groupId) throw new Error(`${csvPath}: user ${row.username} is in team "${row.team}", which has no group id in groupIds`);
  const user = new kasm.User(row.username, { username: row.username, firstName: row.first_name, lastName: row.last_name });
  new kasm.GroupMembership(`${row.username}-${row.team.toLowerCase()}`, { userId: user.userId, groupId });
}

export const userCount = rows.length;
