// Generated from schemas/check-known.schema.json by scripts/generate-types.ts — do not edit.

/**
 * The entries, in the order they are tried: a finding takes the reason of the first that matches it.
 */
export interface CheckKnown {
  known: CheckKnownFinding[];
}

/**
 * One entry: it matches a finding when `files` matches the whole of the file's name as check prints it and `code` the finding's code, each a glob (`*` any run of characters, `/` included; `?` one).
 */
export interface CheckKnownFinding {
  files: string;
  code: string;
  /**
   * Why the finding is accepted for now. Not blank.
   */
  reason: string;
}
