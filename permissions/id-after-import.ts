/**
 * The marker a bulk kind plans for the id of a row that a change adds, in a module of its own: the
 * sdk reads it with every program, and the rows' module (bulk-rows.ts) loads a CSV parser that a
 * program without a CSV does not need.
 */

/**
 * A bulk kind's id for a row that a change adds (`userIds["new.user"]`), as the provider plans it
 * for a preview: the id Kasm will give is not known until the import. The sdk turns it into
 * Pulumi's unknown value in a preview, so that a resource using it shows as created, not broken;
 * an `up` always answers the real ids. (Pulumi runs a dynamic provider's preview of an update on
 * the inputs `check` returns, which may not hold unknown values during an `up`: hence a marker.)
 */
export const ID_AFTER_IMPORT = "(known after the import)";
