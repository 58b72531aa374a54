// Generated from schemas/check-report.schema.json by scripts/generate-types.ts — do not edit.

/**
 * One run of check over the files it was given (folders walked for *.jsonl, *.jsonl.zstd and *.jsonl.zst).
 */
export interface CheckReport {
  /**
   * The $id of this schema, so that editors and validators find it.
   */
  $schema: "https://dsh-session-conformance.dev/schemas/v0/check-report.schema.json";
  /**
   * The version of this report shape.
   */
  reportVersion: 1;
  /**
   * The vocabulary every file was read with (`--vocabulary`, VOC-16): `v0-pinned` by default, or `v0-rc8`. Written in every report since 2026-12-06 (absent from earlier ones, which had no other). A log holding a `team/*` event not marked ignorable is refused under the one and may be valid under the other.
   */
  vocabulary?: string;
  /**
   * Present, and true, when the files were also checked by the rules a writer keeps (`--writer`); absent otherwise. Their findings are the errors WRITER_HEADER_MEMBERS (JSONL-5), WRITER_ROW (ROW-6, ROW-7), WRITER_DUPLICATE_MEMBER (JSON-12), WRITER_HEADER_ONLY (JSONL-8), WRITER_FRAME_CHECKSUM and WRITER_FRAME_BATCH (JSONL-13), WRITER_PACKING (ROW-6), and the notice WRITER_LINE_FORM (JSONL-8).
   */
  writerRules?: true;
  /**
   * Present, and true, when the run was given `--strict`, under which a notice makes its file invalid; absent otherwise.
   */
  strict?: true;
  /**
   * Present, and true, when the run was given `--no-layout`: every file was read as a lone artifact, whatever its name, so no file was held to its place in the storage layout (JSONL-3); absent otherwise.
   */
  noLayout?: true;
  summary: CheckSummary;
  /**
   * The command's exit status: 0 every file valid or known, 1 some file invalid, 2 some file refused or unchecked, or some folder unchecked.
   */
  exitCode: 0 | 1 | 2;
  /**
   * One entry per file, in the order checked.
   */
  files: CheckFileReport[];
  /**
   * Present when the run was given `--known FILE`: each entry of that file that matched no finding of a checked file (mended, or a typo), by its index in the file's `known` list; an entry that keeps matching nothing is one to remove.
   */
  knownUnused?: CheckKnownUnused[];
  /**
   * Each folder that yielded no file to check, in the order met: a folder named on the command line that holds no *.jsonl, *.jsonl.zstd or *.jsonl.zst file, or a folder that could not be read. A gate over such a folder checked nothing, so it fails (exit 2).
   */
  uncheckedFolders: CheckUncheckedFolder[];
}

/**
 * How many files were checked, by status.
 */
export interface CheckSummary {
  files: number;
  valid: number;
  invalid: number;
  /**
   * Invalid or refused files whose every finding that makes them so `--known` accepts.
   */
  known: number;
  /**
   * Files rejected with a code of class refusal (FMT-5): not judged, whatever else they hold.
   */
  refused: number;
  unchecked: number;
  /**
   * The length of the report's uncheckedFolders.
   */
  uncheckedFolders: number;
}

/**
 * An entry of the `--known` file that matched no finding, as the file gives it.
 */
export interface CheckKnownUnused {
  /**
   * Its position in the file's `known` list, from 0.
   */
  index: number;
  files: string;
  code: string;
  reason: string;
}

/**
 * A folder that yielded no file to check, and why.
 */
export interface CheckUncheckedFolder {
  /**
   * The path as given or found.
   */
  folder: string;
  code: "CHECK_IO_ERROR";
  /**
   * Why, for people: no log under it, or the error reading it.
   */
  message: string;
}

/**
 * One file: valid (accepted with no relation violation), invalid (rejected, accepted with violations, with `writerRules` written against a writer's MUST, or with `strict` holding a notice), refused (rejected with a code of class refusal: another format version, or an event type the vocabulary lacks; FMT-5 forbids calling it damage, and it comes before a writer's error or a notice under `strict`, whose findings are listed all the same), known (invalid or refused, but with `--known` each finding that makes it so accepted: no failure of the run) or unchecked (no verdict reached: unreadable, or past one of the checker's limits).
 */
export interface CheckFileReport {
  /**
   * The path as given or found.
   */
  file: string;
  /**
   * From the file name: .zstd (or .zst) is zstd, anything else raw.
   */
  encoding: "raw" | "zstd";
  status: "valid" | "invalid" | "refused" | "known" | "unchecked";
  outcome: CheckOutcome;
  diagnostics: CheckDiagnostic[];
}

/**
 * The pipeline's outcome, shaped like the corpus verdicts: rejected by the first operation that refuses the file (open: the storage layout's path binding, JSONL-3), accepted with its event count, torn tail and relation violations, or unchecked.
 */
export type CheckOutcome =
  | {
      verdict: "rejected";
      operation: "open" | "decodeJsonl" | "load";
      /**
       * The error code of spec/errors.md.
       */
      code: string;
      seq?: number;
      line?: number;
    }
  | {
      verdict: "accepted";
      events: number;
      tornTail: null | CheckTornTail;
      /**
       * The relation violations (PROC-7), in seq order: the first 10,000 of the file, which check lists; the rest are counted in relationsNotListed, and a diagnostic per kind says how many from where.
       */
      relations: {
        code: string;
        seq: number;
      }[];
      /**
       * The relation violations past the 10,000 listed in relations, counted, not listed (so that check's memory stays bounded whatever a log holds); absent when there are none.
       */
      relationsNotListed?: number;
    }
  | {
      verdict: "unchecked";
      /**
       * A CHECK_* code: the checker's own limit or failure, not a rule of the spec.
       */
      code: string;
    };

/**
 * A recoverable torn tail (JSONL-12, JSONL-15). A writer truncates the artifact to `offset` before appending. Raw: the tail is dropped on read. Zstd: `offset` is the start of the torn final frame, whose complete lines are kept on read and written again after truncating.
 */
export interface CheckTornTail {
  line: number;
  /**
   * The byte offset where the tail starts.
   */
  offset: number;
  reason: "unterminated" | "JSONL_LINE_UNPARSABLE" | "JSONL_ROW_INVALID" | "JSONL_SEQ_GAP";
}

/**
 * One finding: an error (a rejection, a relation violation, a limit, a writer's MUST broken) or a notice (a torn tail, a byte order mark, CR line ends, ill-formed UTF-8, a line not as JSON.stringify writes it, a file that changed while it was read: FILE_CHANGED, first of its file's findings).
 */
export interface CheckDiagnostic {
  /**
   * refusal: a rejection whose code has the class refusal in spec/errors.md (FMT-5: the log may be intact, and this reader cannot read it); error: any other finding that makes a file invalid; notice: one that does not, save under strict.
   */
  severity: "error" | "refusal" | "notice";
  code: string;
  /**
   * The requirement ID of spec/ the finding concerns, when there is one.
   */
  requirement?: string;
  /**
   * The line of the file the finding concerns. A zstd frame fault, which the spec reports without a line (the outcome carries none), is placed at the line its frame's content starts on.
   */
  line?: number;
  seq?: number;
  message: string;
  /**
   * With `--known`: the reason of the entry that accepts the finding.
   */
  known?: string;
}
