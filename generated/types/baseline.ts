// Generated from schemas/baseline.schema.json by scripts/generate-types.ts — do not edit.

/**
 * The adapter the failures are known for, the suite they were written against, and the failures.
 */
export interface Baseline {
  /**
   * The adapter's name (its metadata `name`, as reports show it), which ties the file to one implementation.
   */
  adapter: string;
  /**
   * The suite version the file was written against.
   */
  suiteVersion?: string;
  /**
   * The content hash of the suite the file was written against (sha256:…); another one only adds a note.
   */
  suiteHash?: string;
  failures: BaselineEntry[];
}

/**
 * A case that is known to fail, and why: the rule the implementation departs from.
 */
export interface BaselineEntry {
  /**
   * A case id.
   */
  id: string;
  /**
   * Not blank; the blanks around it are dropped.
   */
  reason: string;
}
