/**
 * Batch creation of users and servers from a CSV file: multipart/form-data, credentials in the
 * `api-key` and `api-key-secret` headers, the CSV in `file_content` (as a file part, or as a plain
 * text field), the `view` query, the validation data, and all-or-nothing creation.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator, type WireAnswer } from "../helpers/emulator";

const POOL = "5f000000000000000000000000000001";
const UNKNOWN_POOL = "ffffffffffffffffffffffffffffffff";

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({
    zones: [{ zone_name: "default" }],
    groups: [{ name: "Engineering" }, { name: "Contractors" }],
    serverPools: [{ server_pool_id: POOL, server_pool_name: "Workstations" }],
    users: [{ username: "existing" }, { username: "operator" }],
  });
});
afterAll(() => emulator.close());

/** How the CSV travels in the form: as an uploaded file part, or as a plain text field. */
type PartKind = "file" | "field";

/** A multipart/form-data body with one `file_content` part. */
function multipart(csv: string | Buffer, kind: PartKind): { body: Buffer; contentType: string } {
  const boundary = `----emulator-test-${randomBytes(8).toString("hex")}`;
  const disposition =
    kind === "file"
      ? `Content-Disposition: form-data; name="file_content"; filename="import.csv"\r\nContent-Type: text/csv`
      : `Content-Disposition: form-data; name="file_content"`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\n${disposition}\r\n\r\n`),
    Buffer.isBuffer(csv) ? csv : Buffer.from(csv, "utf8"),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Upload a CSV to a batch operation with header credentials. */
function upload(
  operation: "batch_create_user" | "batch_create_server",
  csv: string | Buffer,
  options: { view?: string; kind?: PartKind } = {},
): Promise<WireAnswer> {
  const { body, contentType } = multipart(csv, options.kind ?? "file");
  const query = options.view ? `?view=${options.view}` : "";
  return emulator.raw("POST", `/api/public/${operation}${query}`, {
    body,
    headers: { "content-type": contentType, "api-key": ADMIN.key, "api-key-secret": ADMIN.secret },
  });
}

const usernames = async (): Promise<string[]> =>
  Object.values((await emulator.state()).users as Record<string, { username: string }>)
    .map((u) => u.username)
    .sort();
const userNamed = async (name: string) =>
  Object.values((await emulator.state()).users as Record<string, { username: string; user_id: string; group_ids: string[]; server_ids: string[] }>).find(
    (u) => u.username === name,
  );
const groupId = async (name: string) =>
  Object.values((await emulator.state()).groups as Record<string, { name: string; group_id: string }>).find((g) => g.name === name)!.group_id;

describe("batch_create_user", () => {
  it("creates users and, by default (view table), answers the validation data and resources null", async () => {
    const csv = "username,first_name,last_name,realm\nivy,Ivy,Ng,local\njack,Jack,,ldap\n";
    const res = await upload("batch_create_user", csv);
    expect(res.status).toBe(200);
    expect(res.body.error_message).toBeNull();
    expect(res.body.resources).toBeNull();
    expect(res.body.csv_validation_data).toEqual({
      headers: ["username", "first_name", "last_name", "realm"],
      total_errors: 0,
      global_errors: [],
      total_rows: 2,
      row_data: [
        {
          total_errors: 0,
          contextual_errors: [],
          fields: [
            { field: "username", value: "ivy" },
            { field: "first_name", value: "Ivy" },
            { field: "last_name", value: "Ng" },
            { field: "realm", value: "local" },
          ],
        },
        {
          total_errors: 0,
          contextual_errors: [],
          fields: [
            { field: "username", value: "jack" },
            { field: "first_name", value: "Jack" },
            { field: "last_name", value: "" },
            { field: "realm", value: "ldap" },
          ],
        },
      ],
      file_bom: "",
    });
    expect(await usernames()).toEqual(["existing", "ivy", "jack", "operator"]);
    const jack = (await emulator.state()).users[(await userNamed("jack"))!.user_id];
    expect(jack).toMatchObject({ realm: "ldap", first_name: "Jack" });
  });

  it("with view=api answers csv_validation_data null and resources.users with the batch fields, crypt_password and crypt_salt masked", async () => {
    const csv = "username,first_name,email,city,state,country,phone_number,organization\nkate,Kate,kate@example.org,Lyon,ARA,FR,+33 1,ACME\n";
    const res = await upload("batch_create_user", csv, { view: "api" });
    expect(res.status).toBe(200);
    expect(res.body.error_message).toBeNull();
    expect(res.body.csv_validation_data).toBeNull();
    expect(Object.keys(res.body.resources)).toEqual(["users"]);
    expect(res.body.resources.users).toHaveLength(1);
    const kate = res.body.resources.users[0];
    const stored = await userNamed("kate");
    expect(kate).toMatchObject({
      user_id: stored!.user_id,
      username: "kate",
      first_name: "Kate",
      phone: "+33 1",
      organization: "ACME",
      realm: "local",
      locked: false,
      disabled: false,
      email: "kate@example.org",
      city: "Lyon",
      state: "ARA",
      country: "FR",
      company: {},
      failed_pw_attempts: 0,
    });
    for (const field of [
      "failed_pw_attempts",
      "plan_start_date",
      "plan_end_date",
      "plan_id",
      "saml_id",
      "oidc_id",
      "subscription_id",
      "company_id",
      "company",
      "password_set_date",
      "city",
      "state",
      "country",
      "email",
      "custom_attribute_1",
      "custom_attribute_2",
      "custom_attribute_3",
      "crypt_password",
      "crypt_salt",
    ])
      expect(kate, field).toHaveProperty(field);
    expect(kate.crypt_password).toMatch(/^\*+$/);
    expect(kate.crypt_salt).toMatch(/^\*+$/);
    expect(kate.groups).toEqual([{ name: "All Users", group_id: await groupId("All Users") }]);
  });

  it("with view=all answers both the validation data and the resources", async () => {
    const res = await upload("batch_create_user", "username\nliam\n", { view: "all" });
    expect(res.status).toBe(200);
    expect(res.body.error_message).toBeNull();
    expect(res.body.csv_validation_data).toMatchObject({ headers: ["username"], total_errors: 0, total_rows: 1 });
    expect(res.body.resources.users).toEqual([expect.objectContaining({ username: "liam" })]);
  });

  it("accepts the CSV as a plain text field as well as a file part", async () => {
    const res = await upload("batch_create_user", "username,first_name\nmia,Mia\n", { kind: "field", view: "api" });
    expect(res.status).toBe(200);
    expect(res.body.resources.users).toEqual([expect.objectContaining({ username: "mia", first_name: "Mia" })]);
    expect(await userNamed("mia")).toBeDefined();
  });

  it("puts users into the groups named in group_1, group_2 columns (and All Users)", async () => {
    const csv = "username,group_1,group_2\nnoah,Engineering,Contractors\nolga,Contractors,\n";
    const res = await upload("batch_create_user", csv, { view: "api" });
    expect(res.status).toBe(200);
    const [engineering, contractors, allUsers] = [await groupId("Engineering"), await groupId("Contractors"), await groupId("All Users")];
    expect((await userNamed("noah"))!.group_ids.sort()).toEqual([allUsers, engineering, contractors].sort());
    expect((await userNamed("olga"))!.group_ids.sort()).toEqual([allUsers, contractors].sort());
    const noah = res.body.resources.users.find((u: { username: string }) => u.username === "noah");
    expect(noah.groups).toEqual(
      expect.arrayContaining([
        { name: "Engineering", group_id: engineering },
        { name: "Contractors", group_id: contractors },
        { name: "All Users", group_id: allUsers },
      ]),
    );
  });

  it("reads CRLF line endings and quoted values holding commas, as spreadsheet exports write them", async () => {
    const res = await upload("batch_create_user", 'username,first_name,organization\r\nrosa,Rosa,"Acme, Inc."\r\n', { view: "all" });
    expect(res.status).toBe(200);
    expect(res.body.csv_validation_data.row_data[0].fields).toEqual([
      { field: "username", value: "rosa" },
      { field: "first_name", value: "Rosa" },
      { field: "organization", value: "Acme, Inc." },
    ]);
    expect(res.body.resources.users[0]).toMatchObject({ username: "rosa", first_name: "Rosa", organization: "Acme, Inc." });
  });

  it("reports a UTF-8 BOM in file_bom and strips it from the first header", async () => {
    const csv = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("username\npia\n")]);
    const res = await upload("batch_create_user", csv);
    expect(res.status).toBe(200);
    expect(res.body.csv_validation_data.file_bom).toBe("\ufeff");
    expect(res.body.csv_validation_data.headers).toEqual(["username"]);
    expect(await userNamed("pia")).toBeDefined();
  });

  describe("validation", () => {
    it("reports a missing username column as the global error CSV_ERROR_002 with field_names, and creates nothing", async () => {
      const before = await usernames();
      const res = await upload("batch_create_user", "first_name,last_name\nQuinn,Doe\n");
      expect(res.status).toBe(400);
      expect(res.body.error_message).toBe("Failed to import CSV file data");
      expect(res.body.csv_validation_data.global_errors).toContainEqual(
        expect.objectContaining({ code: "CSV_ERROR_002", field_names: ["username"], message: expect.any(String) }),
      );
      expect(res.body.csv_validation_data.total_errors).toBeGreaterThanOrEqual(1);
      expect(await usernames()).toEqual(before);
    });

    it("reports a realm outside ldap, local, oidc, saml as CSV_ERROR_009 on the field", async () => {
      const res = await upload("batch_create_user", "username,realm\nrita,kerberos\n");
      expect(res.status).toBe(400);
      expect(res.body.error_message).toBe("Failed to import CSV file data");
      const row = res.body.csv_validation_data.row_data[0];
      expect(row.total_errors).toBe(1);
      expect(row.fields).toContainEqual({ field: "realm", value: "kerberos", error: { code: "CSV_ERROR_009", message: expect.any(String) } });
      expect(row.fields).toContainEqual({ field: "username", value: "rita" });
      expect(await userNamed("rita")).toBeUndefined();
    });

    it("reports an unknown group as CSV_ERROR_011 on the field", async () => {
      const res = await upload("batch_create_user", "username,group_1\nsam,Astronauts\n");
      expect(res.status).toBe(400);
      const row = res.body.csv_validation_data.row_data[0];
      expect(row.fields).toContainEqual({ field: "group_1", value: "Astronauts", error: { code: "CSV_ERROR_011", message: expect.any(String) } });
      expect(await userNamed("sam")).toBeUndefined();
    });

    it("creates nothing when one row of several is bad, and says which row", async () => {
      const before = (await emulator.state()).users;
      const csv = "username,realm,group_1\ntina,local,Engineering\numa,martian,\nvera,saml,\n";
      const res = await upload("batch_create_user", csv, { view: "all" });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toBe("Failed to import CSV file data");
      expect(res.body.resources).toBeNull();
      const data = res.body.csv_validation_data;
      expect(data.total_rows).toBe(3);
      expect(data.total_errors).toBe(1);
      expect(data.row_data.map((r: { total_errors: number }) => r.total_errors)).toEqual([0, 1, 0]);
      expect((await emulator.state()).users).toEqual(before);
    });

    it("fills csv_validation_data on a refusal even with view=api", async () => {
      const res = await upload("batch_create_user", "username,realm\nsven,kerberos\n", { view: "api" });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toBe("Failed to import CSV file data");
      expect(res.body.csv_validation_data).toMatchObject({ headers: ["username", "realm"], total_errors: 1, total_rows: 1 });
      expect(res.body.resources).toBeNull();
    });

    it("refuses a username that exists already, and creates nothing", async () => {
      const before = await usernames();
      const res = await upload("batch_create_user", "username\nwill\nexisting\n");
      expect(res.status).toBe(400);
      expect(res.body.error_message).toBe("Failed to import CSV file data");
      expect(res.body.csv_validation_data.row_data[1].total_errors).toBe(1);
      expect(await usernames()).toEqual(before);
    });

    it("refuses a CSV with an unclosed quote as `Invalid file format:` with csv_validation_data null", async () => {
      const before = await usernames();
      const res = await upload("batch_create_user", 'username,first_name\nxena,"Xena\nyuri,Yuri\n');
      expect(res.status).toBe(400);
      expect(res.body.error_message).toMatch(/^Invalid file format:/);
      expect(res.body.csv_validation_data).toBeNull();
      expect(await usernames()).toEqual(before);
    });

    it("refuses a CSV whose rows have a different number of columns than the header as `Invalid file format:`", async () => {
      const res = await upload("batch_create_user", "username,first_name\nzoe,Zoe,extra,columns\n");
      expect(res.status).toBe(400);
      expect(res.body.error_message).toMatch(/^Invalid file format:/);
      expect(res.body.csv_validation_data).toBeNull();
      expect(await userNamed("zoe")).toBeUndefined();
    });

    it("refuses an empty file with 400", async () => {
      const res = await upload("batch_create_user", "");
      expect(res.status).toBe(400);
      expect(res.body.error_message).toMatch(/^Invalid file format:/);
      expect(res.body.csv_validation_data).toBeNull();
    });

    it("refuses a form without file_content with 400", async () => {
      const boundary = "----emulator-test-empty";
      const res = await emulator.raw("POST", "/api/public/batch_create_user", {
        body: `--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\nx\r\n--${boundary}--\r\n`,
        headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "api-key": ADMIN.key, "api-key-secret": ADMIN.secret },
      });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toEqual(expect.any(String));
    });
  });

  describe("envelope", () => {
    it("refuses a JSON body with 400 naming multipart", async () => {
      const res = await emulator.raw("POST", "/api/public/batch_create_user", {
        body: JSON.stringify({ api_key: ADMIN.key, api_key_secret: ADMIN.secret, file_content: "username\nzed\n" }),
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toContain("multipart");
      expect(await userNamed("zed")).toBeUndefined();
    });

    it("reads the credentials from the headers: none gives 401", async () => {
      const { body, contentType } = multipart("username\nzed\n", "file");
      const res = await emulator.raw("POST", "/api/public/batch_create_user", { body, headers: { "content-type": contentType } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error_message: "Invalid user name or password." });
      expect(await userNamed("zed")).toBeUndefined();
    });
  });
});

describe("batch_create_server", () => {
  it("creates servers and with view=api answers them under resources.servers", async () => {
    const csv =
      "name,ip_hostname,port,zone_name,connection_type,connection_credential_type,use_user_private_key,pool_id,labels\n" +
      `Lab 1,lab1.example.org,22,default,SSH,STATIC,true,${POOL},gpu;lab\n` +
      "Lab 2,10.0.0.12,3389,default,RDP,PROMPT_USER,false,,\n";
    const res = await upload("batch_create_server", csv, { view: "api" });
    expect(res.status).toBe(200);
    expect(res.body.error_message).toBeNull();
    expect(res.body.csv_validation_data).toBeNull();
    expect(Object.keys(res.body.resources)).toEqual(["servers"]);
    const [lab1, lab2] = res.body.resources.servers;
    expect(lab1).toMatchObject({
      friendly_name: "Lab 1",
      hostname: "lab1.example.org",
      connection_port: 22,
      zone_name: "default",
      connection_type: "SSH",
      connection_credential_type: "STATIC",
      use_user_private_key: true,
      server_pool_id: POOL,
      server_pool_name: "Workstations",
      labels: ["gpu", "lab"],
    });
    expect(lab2).toMatchObject({
      friendly_name: "Lab 2",
      hostname: "10.0.0.12",
      connection_port: 3389,
      connection_type: "RDP",
      connection_credential_type: "PROMPT_USER",
      server_pool_id: null,
    });
    const state = await emulator.state();
    expect(state.servers[lab1.server_id]).toBeDefined();
    expect(state.servers[lab2.server_id]).toBeDefined();
    const read = await emulator.call("get_servers", { target_server: { server_id: lab1.server_id } });
    expect(read.body.server).toEqual(lab1);
  });

  it("by default (view table) answers the validation data and resources null", async () => {
    const res = await upload("batch_create_server", "name,ip_hostname,port,zone_name,connection_type\nLab 3,lab3.example.org,22,default,SSH\n");
    expect(res.status).toBe(200);
    expect(res.body.resources).toBeNull();
    expect(res.body.csv_validation_data).toMatchObject({ total_errors: 0, total_rows: 1, global_errors: [] });
  });

  it("assigns the server to the user named in assigned_username", async () => {
    const res = await upload(
      "batch_create_server",
      "name,ip_hostname,port,zone_name,connection_type,assigned_username\nLab 4,lab4.example.org,22,default,SSH,operator\n",
      { view: "api" },
    );
    expect(res.status).toBe(200);
    const server = res.body.resources.servers[0];
    const operator = await userNamed("operator");
    expect(operator!.server_ids).toContain(server.server_id);
    expect(server.assigned_users).toEqual([{ user_id: operator!.user_id, username: "operator" }]);
  });

  const serverCount = async () => Object.keys((await emulator.state()).servers).length;

  it("reports an unknown zone as CSV_ERROR_011 and creates nothing", async () => {
    const before = await serverCount();
    const csv = "name,ip_hostname,port,zone_name,connection_type\n" + "Good,good.example.org,22,default,SSH\n" + "Lost,lost.example.org,22,atlantis,SSH\n";
    const res = await upload("batch_create_server", csv);
    expect(res.status).toBe(400);
    expect(res.body.error_message).toBe("Failed to import CSV file data");
    expect(res.body.csv_validation_data.row_data[1].fields).toContainEqual({
      field: "zone_name",
      value: "atlantis",
      error: { code: "CSV_ERROR_011", message: expect.any(String) },
    });
    expect(res.body.csv_validation_data.row_data[0].total_errors).toBe(0);
    expect(await serverCount()).toBe(before);
  });

  it("reports an unknown pool_id as CSV_ERROR_011", async () => {
    const before = await serverCount();
    const res = await upload(
      "batch_create_server",
      `name,ip_hostname,port,zone_name,connection_type,pool_id\nP,p.example.org,22,default,SSH,${UNKNOWN_POOL}\n`,
    );
    expect(res.status).toBe(400);
    expect(res.body.csv_validation_data.row_data[0].fields).toContainEqual({
      field: "pool_id",
      value: UNKNOWN_POOL,
      error: { code: "CSV_ERROR_011", message: expect.any(String) },
    });
    expect(await serverCount()).toBe(before);
  });

  it("reports SSH with credential type PROMPT_USER as CSV_ERROR_012 naming both fields", async () => {
    const before = await serverCount();
    const res = await upload(
      "batch_create_server",
      "name,ip_hostname,port,zone_name,connection_type,connection_credential_type\nS,s.example.org,22,default,SSH,PROMPT_USER\n",
    );
    expect(res.status).toBe(400);
    expect(res.body.error_message).toBe("Failed to import CSV file data");
    const row = res.body.csv_validation_data.row_data[0];
    expect(row.contextual_errors).toEqual([{ code: "CSV_ERROR_012", message: expect.any(String), fields: ["connection_type", "connection_credential_type"] }]);
    expect(row.total_errors).toBe(1);
    expect(await serverCount()).toBe(before);
  });

  it("reports missing required server columns as the global error CSV_ERROR_002", async () => {
    const res = await upload("batch_create_server", "name,ip_hostname\nN,n.example.org\n");
    expect(res.status).toBe(400);
    expect(res.body.csv_validation_data.global_errors).toContainEqual(
      expect.objectContaining({ code: "CSV_ERROR_002", field_names: expect.arrayContaining(["port", "zone_name", "connection_type"]) }),
    );
  });

  it("refuses an unparseable CSV as `Invalid file format:` with csv_validation_data null", async () => {
    const res = await upload("batch_create_server", 'name,ip_hostname,port,zone_name,connection_type\n"Q,q.example.org,22,default,SSH\n');
    expect(res.status).toBe(400);
    expect(res.body.error_message).toMatch(/^Invalid file format:/);
    expect(res.body.csv_validation_data).toBeNull();
  });

  it("refuses a JSON body with 400 naming multipart", async () => {
    const res = await emulator.call("batch_create_server", { file_content: "name\nx\n" });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toContain("multipart");
  });
});
