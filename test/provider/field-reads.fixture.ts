/**
 * Reads of API record fields in every form the scanner of ./field-reads.ts must see, so that the
 * fields test can show the scanner finds them (it is scanned, never run).
 */
import type { Server, User } from "../../provider/api";

/** Each form of read once: a property, an undeclared field, `in`, destructuring, a string index. */
export function readsEveryWay(server: Server, user: User): unknown[] {
  const undeclared = server.field_the_schema_does_not_declare;
  const present = "another_undeclared_field" in server;
  const { username, first_name: firstName } = user;
  return [server.server_id, undeclared, present, username, firstName, server["hostname"]];
}
