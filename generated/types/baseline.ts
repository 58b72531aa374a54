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
   * The content hash of the suite the file was written against (sha256:…), or of the cases of the folder `vectors` names; another one only adds a note.
   */
  suiteHash?: string;
  /**
   * Written by a run of `--vectors DIR`: that folder, as the run named it. The file's ids and suiteHash are then the folder's, and a later run of the same folder (compared by its last path segment) holds them to its cases: an id it lacks is noted, fails a run under --strict-baseline and is dropped when the file is rewritten. A file written for other cases (without it, given to a run of a folder; with it, given to a run of the suite or of another folder) has its ids held to none, and a rewrite keeps its entries.
   */
  vectors?: string;
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
