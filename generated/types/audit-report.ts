// Generated from schemas/audit-report.schema.json by scripts/generate-types.ts — do not edit.

/**
 * One audit of one stored log.
 */
export interface AuditReport {
  /**
   * The $id of this schema, so that editors and validators find it.
   */
  $schema: "https://dsh-session-conformance.dev/schemas/v0/audit-report.schema.json";
  /**
   * The version of this report shape.
   */
  reportVersion: 1;
  generator: AuditGenerator;
  log: AuditLogInfo;
  tokenizer: AuditTokenizer;
  /**
   * fail when a row fails, else warn when a row warns, else pass; a human row alone leaves pass.
   */
  overall: AuditVerdict;
  /**
   * The seven rows, in the order of the acceptance table.
   *
   * @minItems 7
   * @maxItems 7
   */
  rows: [AuditRow, AuditRow, AuditRow, AuditRow, AuditRow, AuditRow, AuditRow];
  /**
   * Every replace of the log in seq order, with what it shadowed and the text that took its place.
   */
  replacements: AuditReplacement[];
  /**
   * The data of the surface timeline; null when the log does not load.
   */
  timeline: AuditTimeline | null;
  /**
   * The numbers of the budget row; null when the log does not load.
   */
  budget: AuditBudget | null;
}

/**
 * A count, a size or a seq: a non-negative safe integer.
 */
export type AuditCount = number;

/**
 * pass: the mechanical checks hold; fail: a failure signal of the row was found; warn: something a reader should look at, not a failure; human: only a person can decide the row, and the evidence is listed for them.
 */
export type AuditVerdict = "pass" | "fail" | "warn" | "human";

/**
 * What one piece of evidence says: a verdict, or info for a plain fact.
 */
export type AuditEvidenceMark = "pass" | "fail" | "warn" | "human" | "info";

/**
 * The tool that wrote the report.
 */
export interface AuditGenerator {
  name: string;
  version: string;
}

/**
 * Why the log did not load: the operation that rejected it and its error (spec/00-processing.md).
 */
export interface AuditRejection {
  operation: "decodeJsonl" | "load";
  code: string;
  /**
   * The class spec/errors.md gives the code. A refusal (FMT-5) says the log may be intact and this reader cannot read it, which is no sign of damage; the audit then exits 2.
   */
  class: "refusal" | "malformed" | "invalid" | "relation" | "operation";
  seq?: AuditCount;
  line?: AuditCount;
  message: string;
}

/**
 * The audited artifact.
 */
export interface AuditLogInfo {
  file: string;
  bytes: AuditCount;
  encoding: "raw" | "zstd";
  /**
   * Present, and true, when the audit was given `--no-layout`: the log was read as a lone artifact, whatever its name, so its place in the storage layout was not checked (JSONL-3); absent otherwise.
   */
  noLayout?: true;
  vocabulary: string;
  /**
   * The header line's id; for a raw log whose header line fails its checks, the string id of its first line when that parses as an object; else null.
   */
  sessionId: string | null;
  /**
   * Events decoded from the artifact; null when it does not decode.
   */
  events: AuditCount | null;
  /**
   * null when the log loads.
   */
  rejection: AuditRejection | null;
}

/**
 * What counted the tokens of the budget row.
 */
export interface AuditTokenizer {
  name: string;
  /**
   * estimate marks counts that no tokenizer made.
   */
  kind: "tokenizer" | "estimate";
  note: string;
  /**
   * How many distinct pieces of text the tokenizer estimated (one token per 4 UTF-8 bytes) instead of counting them: pieces longer than 131,072 UTF-16 code units, which hold a run of more than 65,536 with no place to cut it where the counts of the pieces add up to the whole's (docs/audit.md), and whose count would cost time and memory that grow with them. 0 for the estimate, whose counts are all estimates.
   */
  estimatedRuns: AuditCount;
}

/**
 * One row of the acceptance table.
 */
export interface AuditRow {
  id:
    | "raw-facts"
    | "surface-legality"
    | "constraint-preservation"
    | "request-rebuild"
    | "persistence"
    | "failure-recovery"
    | "budget";
  title: string;
  verdict: AuditVerdict;
  /**
   * One sentence that states the verdict's reason.
   */
  summary: string;
  /**
   * The requirements that check the row mechanically.
   */
  checkedBy: string;
  /**
   * What no tool can decide for this row, or null: always null for a row that was not evaluated (the log does not load).
   */
  needsHuman: string | null;
  evidence: AuditEvidence[];
}

/**
 * One fact behind a verdict.
 */
export interface AuditEvidence {
  mark: AuditEvidenceMark;
  text: string;
  /**
   * The event the fact is about, when there is one.
   */
  seq?: AuditCount;
  requirements?: string[];
}

/**
 * A surface node a replace took off the surface.
 */
export interface AuditShadowedNode {
  seq: AuditCount;
  type: string;
  role: string | null;
  /**
   * The text of its message (text, reasoning, tool calls and tool results).
   */
  text: string;
  tokens: AuditCount;
}

/**
 * One replace: the range it shadowed, what shadowed it, and when.
 */
export interface AuditReplacement {
  seq: AuditCount;
  time: number;
  type: string;
  kind: "compaction-checkpoint" | "tool-result-rewrite" | "other-replace";
  start: AuditCount;
  end: AuditCount;
  shadowedSeqs: AuditCount[];
  citedSeqs: AuditCount[];
  compactionId: string | null;
  /**
   * The outcome (COMP-16) of the bracket the replace lies in, or null.
   */
  bracketOutcome: AuditBracketOutcome | null;
  /**
   * shadowedTokenCount of the summary or prune that claimed the range, or null.
   */
  recordedShadowedTokenCount: AuditCount | null;
  /**
   * The text of the replacing message.
   */
  text: string;
  tokens: AuditCount;
  shadowed: AuditShadowedNode[];
  shadowedTokens: AuditCount;
  /**
   * Identifiers, paths and numbers of the shadowed text that the replacing text does not contain: a reading aid, not a verdict.
   */
  absentTerms: string[];
}

/**
 * One turn, from its turn/start to its turn/end (null while open).
 */
export interface AuditTimelineTurn {
  turn: number | null;
  startSeq: AuditCount;
  endSeq: AuditCount | null;
  endReason: string | null;
}

/**
 * The outcome of one compaction bracket, one of the six of COMP-16: completed (ended without error, holds a summary and a checkpoint), irregular (ended without error, lacks either), failed-clean (ended with error, holds neither), failed-partial (ended with error, holds either), orphaned-live (no end, not ended by an end-seed), orphaned-stale (no end, ended by an end-seed).
 */
export type AuditBracketOutcome =
  "completed" | "irregular" | "failed-clean" | "failed-partial" | "orphaned-live" | "orphaned-stale";

/**
 * One compaction bracket and its outcome (COMP-16).
 */
export interface AuditTimelineBracket {
  startSeq: AuditCount;
  endSeq: AuditCount | null;
  outcome: AuditBracketOutcome;
  compactionId: string | null;
  /**
   * The end's error, as text, or null.
   */
  error: string | null;
}

/**
 * A model call that finished with an error (an assistant/chunk finish of kind error).
 */
export interface AuditModelFailure {
  seq: AuditCount;
  code: string | null;
  message: string;
}

/**
 * What the timeline draws, over the seqs of the log.
 */
export interface AuditTimeline {
  /**
   * The type of each event, indexed by seq.
   */
  eventTypes: string[];
  firstTime: number | null;
  lastTime: number | null;
  /**
   * The current surface nodes, in surface order.
   */
  finalSurface: AuditCount[];
  generation: AuditCount;
  turns: AuditTimelineTurn[];
  brackets: AuditTimelineBracket[];
  endSeeds: AuditCount[];
  modelFailures: AuditModelFailure[];
}

/**
 * Token counts, made by the report's tokenizer.
 */
export interface AuditTokens {
  /**
   * The system prompt in force at the end of the log.
   */
  systemPrompt: AuditCount;
  /**
   * The tool schemas in force at the end of the log, as JSON text.
   */
  toolSchemas: AuditCount;
  toolCount: AuditCount;
  /**
   * The messages of the current surface: what the next request sends.
   */
  surfaceMessages: AuditCount;
  /**
   * Every append-origin message: what the surface would hold with no replace.
   */
  transcriptMessages: AuditCount;
  /**
   * The messages the replaces shadowed, each counted once.
   */
  shadowed: AuditCount;
  /**
   * The replacing messages.
   */
  replacementText: AuditCount;
  /**
   * transcriptMessages minus surfaceMessages.
   */
  saved: number;
  /**
   * Whether a request/header is in force at the end of the log. Without one, systemPrompt, toolSchemas and toolCount are 0, and the fixed part of the next request is unknown (HDR-4).
   */
  headerInForce: boolean;
  /**
   * System prompt and tool schemas in force at the first replace, or null with no replace or no request/header in force at it.
   */
  fixedAtFirstReplacement: AuditCount | null;
  /**
   * The context window in force at the end of the log (request/context), or null.
   */
  contextWindow: AuditCount | null;
}

/**
 * Usage the provider reported, counted as DER-10 says (usage chunks first, the message's usage for a step without one).
 */
export interface AuditProviderUsage {
  steps: AuditCount;
  /**
   * Input tokens sent uncached: the usage records' inputTokens, which leave out cached input.
   */
  inputTokens: AuditCount;
  /**
   * Input tokens read from the provider's prompt cache.
   */
  cacheReadTokens: AuditCount;
  /**
   * Input tokens written to the provider's prompt cache.
   */
  cacheWriteTokens: AuditCount;
  outputTokens: AuditCount;
  /**
   * The uncached input of the last usage record, null when there is none.
   */
  lastInputTokens: AuditCount | null;
  /**
   * All the input of the last usage record (uncached, read from and written to the cache), null when there is none.
   */
  lastPromptTokens: AuditCount | null;
}

/**
 * Raw log against surface, and the share of the system prompt and tool schemas.
 */
export interface AuditBudget {
  rawEvents: AuditCount;
  rawBytes: AuditCount;
  logOnlyEvents: AuditCount;
  surfaceNodes: AuditCount;
  surfaceMessages: AuditCount;
  /**
   * UTF-8 bytes of the derived messages as JSON.
   */
  surfaceMessageBytes: AuditCount;
  tokens: AuditTokens;
  providerUsage: AuditProviderUsage;
}
