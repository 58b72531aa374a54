// Generated from schemas/known-divergences.schema.json by scripts/generate-types.ts — do not edit.

/**
 * The adapters the file applies to, and its classes in the order they are tried.
 */
export interface KnownDivergences {
  /**
   * Globs over adapter names (`*` any run of characters, `?` one).
   */
  adapters: string[];
  known: KnownClass[];
}

/**
 * One class: a disagreement falls in it when every glob given matches the whole of its member; a member not given matches anything, but a class gives at least one (`*` matches anything on purpose), hence its three members at least. A failure of the adapter falls in none.
 */
export interface KnownClass {
  /**
   * The finding (docs/findings.md).
   */
  class: string;
  /**
   * Not blank.
   */
  why: string;
  /**
   * A glob over the operation's name.
   */
  operation?: string;
  /**
   * A glob over the reference's outcome: `accepts` or `rejects CODE`.
   */
  reference?: string;
  /**
   * A glob over how the adapter departs: `accepts`, `rejects CODE`, `differs at PATH`, `lacks …`, `cannot handle it` (it answered unsupported).
   */
  adapter?: string;
  /**
   * `current`, or `older` for a class found only on a log rewritten into older shapes (not a glob).
   */
  shapes?: "current" | "older";
  /**
   * `objects`, or `not-all-objects` for a class found on a log holding a record that is no object (not a glob).
   */
  records?: "objects" | "not-all-objects";
}
