// Generated from schemas/run-report.schema.json by scripts/generate-types.ts — do not edit.

/**
 * One run of the suite against one or more adapters.
 */
export interface RunReport {
  /**
   * The $id of this schema, so that editors and validators find it.
   */
  $schema: "https://dsh-session-conformance.dev/schemas/v0/run-report.schema.json";
  /**
   * The version of this report shape.
   */
  reportVersion: 1;
  /**
   * The runner that wrote the report.
   */
  tool: {
    name: "dsh-conformance";
    version: string;
  };
  suite: RunReportSuite;
  selection: RunReportSelection;
  /**
   * Whether a NEW PASS, or a listed id no case of the run has, fails the run (--strict-baseline).
   */
  strictBaseline: boolean;
  /**
   * When the run started, as an ISO 8601 date-time in UTC.
   */
  startedAt: string;
  durationMs: number;
  /**
   * The run's verdict: true when no adapter's run failed. The runner's exit status is 0 exactly then, unless a report or baseline could not be written (exit 2, whatever the verdict).
   */
  passed: boolean;
  /**
   * One entry per adapter, in the order they ran.
   */
  runs: RunReportAdapterRun[];
  /**
   * What is wrong with the run as a whole rather than with one adapter's run: a baseline that applied to no adapter (its adapter did not run, or its name is misspelt), a baseline that applied to two adapters of one name. Absent when there is none.
   */
  warnings?: string[];
}

/**
 * The whole suite, before any filter: its package name and version and the content hash of every expanded case (the `contentHash` member of generated/vectors.bundle.json, not a hash of the file).
 */
export interface RunReportSuite {
  name: string;
  version: string;
  contentHash: string;
  caseCount: number;
  /**
   * The folder whose vector files ran instead of the suite's (`--vectors DIR`); absent when the suite's own ran.
   */
  vectors?: string;
}

/**
 * The cases the filters selected; every list empty means every case.
 */
export interface RunReportSelection {
  chapters: string[];
  requirements: string[];
  profiles: string[];
  /**
   * Operations: a case is selected when a step of it runs one of them.
   */
  operations: string[];
  /**
   * Globs over case ids.
   */
  cases: string[];
  /**
   * How many cases the filters selected.
   */
  caseCount: number;
}

/**
 * The run of one adapter.
 */
export interface RunReportAdapterRun {
  /**
   * The adapter as the command line named it: a registered name or a command.
   */
  label: string;
  /**
   * The adapter's metadata; null when it could not be started.
   */
  adapter: RunReportAdapter | null;
  /**
   * Why the adapter could not be started.
   */
  startError?: string;
  /**
   * How the adapter broke the protocol after its last reply (a line when none was due, an exit status other than 0, no exit after stop); the run fails.
   */
  stopError?: string;
  /**
   * False when the adapter could not start, broke the protocol after its last reply, tested nothing (every case skipped, or no case given), or has a fail or error no baseline covers, or under strict a NEW PASS or a listed id the suite does not have.
   */
  passed: boolean;
  durationMs: number;
  totals: RunReportCounts;
  baseline?: RunReportBaseline;
  /**
   * The last lines the adapter wrote to stderr, kept when a case of its run failed or erred, or the adapter could not start or stop cleanly (a run that fails only on skips or under --strict-baseline keeps none).
   */
  stderrTail?: string;
  /**
   * True when cases of a profile the adapter claims were skipped for operations it does not provide, or failed because the implementation answered that it cannot handle their input (`unsupported`), which a baseline may list: the claim is partial (spec/profiles.md), however `passed` reads, and `warnings` says which profiles and operations. For a CI gate that accepts only whole claims.
   */
  partialClaim: boolean;
  /**
   * What the run did not back: a claimed profile whose cases were skipped for operations the adapter lacks, a profile not claimed whose cases the adapter's operations could have run, fails whose rejection codes spec/errors.md does not list (each code with its count), fails where the implementation answered that it cannot handle the input (counted by operation), a run that tested nothing.
   */
  warnings?: string[];
  /**
   * Every selected case, in suite order; empty when the adapter could not start (startError), which ran none.
   */
  cases: RunReportCase[];
}

/**
 * Who was tested, as the adapter declares it.
 */
export interface RunReportAdapter {
  name: string;
  version: string;
  language: string;
  homepage?: string;
  /**
   * The profiles the implementation claims (spec/profiles.md): reader, writer, relations, repair, compaction, fork, jsonl, storage.
   */
  profiles: string[];
  transport: "in-process" | "subprocess";
}

/**
 * How many cases had each outcome.
 */
export interface RunReportCounts {
  pass: number;
  fail: number;
  error: number;
  skip: number;
}

/**
 * The run compared with the adapter's baseline (--baseline FILE).
 */
export interface RunReportBaseline {
  /**
   * The baseline file.
   */
  source: string;
  /**
   * NEW FAIL: cases that failed or erred and are not listed.
   */
  newFailures: string[];
  /**
   * NEW PASS: listed cases that passed.
   */
  newPasses: string[];
  /**
   * Listed cases that still fail or err.
   */
  stillFailing: string[];
  /**
   * Listed cases that were skipped or not selected; in a run of a folder's vectors given a suite's baseline, also every listed id the folder lacks (its ids are another set, not stale).
   */
  notRun: string[];
  /**
   * Listed ids the run's cases do not have (the suite's, or a folder's when the baseline names one with `vectors`): stale entries (a typo, or a case that left), which fail the run under --strict-baseline. Empty when a suite's baseline is given to a run of --vectors DIR, whose ids are another set (they are in notRun).
   */
  unknownIds: string[];
  /**
   * Mismatches worth knowing: another adapter name, another suite or folder hash, a baseline written for other cases, ids no case of the run has.
   */
  notes: string[];
}

/**
 * The outcome of one case.
 */
export interface RunReportCase {
  id: string;
  title: string;
  chapter: string;
  requirements: string[];
  profile: string;
  /**
   * pass: every step passed. fail: a step's result differs from the expectation, or the adapter answered that it cannot handle the step's input (`unsupported`, which the reason says). error: the adapter threw, timed out, crashed or answered out of protocol. skip: the adapter does not declare the case's profile or one of its operations.
   */
  status: "pass" | "fail" | "error" | "skip";
  /**
   * The 0-based step that decided a fail or an error.
   */
  step?: number;
  /**
   * That step's operation.
   */
  operation?: string;
  /**
   * For a fail, an error or a skip: what happened, for people.
   */
  reason?: string;
  diff?: RunReportDiff;
  /**
   * For a fail: the adapter answered that the implementation cannot handle the step's input (spec/adapter-protocol.md), rather than giving a wrong verdict.
   */
  unsupported?: true;
  /**
   * known-failure: a fail or error the baseline lists; new-fail: one it does not list; new-pass: a listed case that passed.
   */
  baseline?: "known-failure" | "new-fail" | "new-pass";
  /**
   * The reason the baseline gives for this case.
   */
  baselineReason?: string;
  durationMs?: number;
}

/**
 * For a fail: the first place where the result differs from the expectation, both sides as short JSON text, and for logs the seq of the first event where they diverge.
 */
export interface RunReportDiff {
  /**
   * A path into the operation result (`$.nodes[0]`, `$.error.code`).
   */
  path: string;
  expected: string;
  actual: string;
  /**
   * For two strings too long to show whole: where they first differ in the expected string, counted in characters (code points: index from 0, line and column from 1); expected and actual then show the text around that place, cut with … and JSON-quoted.
   */
  at?: {
    index: number;
    line: number;
    column: number;
  };
  /**
   * The seq of the first event that differs (its index when the event has no seq that is a non-negative safe integer).
   */
  divergingSeq?: number;
}
