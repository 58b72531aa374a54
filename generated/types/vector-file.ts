// Generated from schemas/vector-file.schema.json by scripts/generate-types.ts — do not edit.

/**
 * One YAML file of golden vectors under vectors/<chapter>/. See vectors/README.md for the meaning of every member and for the builder notation of `log` items.
 */
export interface VectorFile {
  /**
   * The spec chapter file (without .md) the vectors pin.
   */
  chapter: string;
  title: string;
  description?: string;
  /**
   * @minItems 1
   */
  cases: [Case, ...Case[]];
}

export interface Case {
  /**
   * Stable, never renumbered, unique across the suite.
   */
  id: string;
  title: string;
  /**
   * @minItems 1
   */
  requirements: [string, ...string[]];
  profile: "reader" | "writer" | "relations" | "repair" | "compaction" | "fork" | "jsonl" | "storage";
  /**
   * The session header given to operations that take one (tagged values allowed).
   */
  header?: {
    [k: string]: unknown;
  };
  /**
   * The session id given to every step that takes one, append included: any value (tagged values allowed); PROC-10 says what one that is no string names.
   */
  sessionId?: {
    [k: string]: unknown;
  };
  vocabulary?: "v0-pinned" | "v0-rc8";
  /**
   * Builder-notation items (vectors/README.md), expanded into the case's events.
   */
  log?: LogItem[];
  /**
   * JSONL storage text for decodeJsonl.
   */
  text?: string;
  /**
   * Raw storage bytes for decodeJsonl, base64-encoded.
   */
  base64?: string;
  /**
   * True for machine-found vectors that a person has not reviewed yet.
   */
  review?: boolean;
  notes?: string;
  /**
   * @minItems 1
   */
  steps: [Step, ...Step[]];
}

export interface Step {
  expect: Expectation;
  load?: LogInputs;
  /**
   * A builder item: the candidate event.
   */
  append?: LogItem;
  surface?: LogInputs & {
    baseSeq?: unknown;
  };
  messages?: LogInputs;
  requestHeader?: LogInputs & {
    atSeq?: unknown;
  };
  requestContext?: LogInputs & {
    atSeq?: unknown;
  };
  relations?: LogInputs;
  repair?: LogInputs;
  resume?: LogInputs & {
    now?: unknown;
  };
  compactionState?: LogInputs & {
    entry?: unknown;
  };
  regionBalance?: LogInputs & {
    seq?: unknown;
    start?: unknown;
    end?: unknown;
  };
  fork?: LogInputs & {
    boundary?: unknown;
    childId?: unknown;
    now?: unknown;
  };
  decodeJsonl?: {
    text?: unknown;
    base64?: unknown;
    encoding?: unknown;
  };
  encodeJsonl?: {
    header?: unknown;
    batches?: unknown;
  };
  artifactPath?: {
    sessionId?: unknown;
    cwd?: unknown;
    encoding?: unknown;
  };
  store?: {
    header?: unknown;
    batches?: unknown;
  };
  headerEquals?: {
    left?: unknown;
    right?: unknown;
  };
}

/**
 * The input members every operation over a log takes (spec/00-processing.md, PROC-9); a step may lay any of them over the case's. A step's own members are its operation's inputs and no others, so a misspelt one is refused rather than ignored.
 */
export interface LogInputs {
  events?: unknown;
  header?: unknown;
  sessionId?: unknown;
  vocabulary?: unknown;
}

/**
 * One item of builder notation (vectors/README.md): exactly one head key, which says what event it builds, and only the modifiers that head takes. Values are constrained only where the builder needs them (the number of values of a list argument, the seqs of compaction/summary as a non-empty list, an event that is a mapping): vectors build malformed events on purpose.
 */
export type LogItem = {
  [k: string]: unknown;
};

/**
 * The modifiers every head but event and record takes.
 */
export interface EnvelopeModifiers {
  /**
   * [start, end] of a replace surfaceOp
   *
   * @minItems 2
   * @maxItems 2
   */
  replace?: [unknown, unknown];
  sources?: unknown;
  surfaceOp?: unknown;
  ignorable?: unknown;
  seq?: unknown;
  time?: unknown;
  patch?: unknown;
}

/**
 * a mapping of exactly one of accept: true, value or reject
 */
export type Expectation =
  | {
      accept: true;
    }
  | {
      value: unknown;
    }
  | {
      reject: {
        /**
         * a rejection code of spec/errors.md, spelled as the protocol spells codes
         */
        code: string;
        /**
         * the seq the rejection must carry; null: it must carry none
         */
        seq?: number | null;
        /**
         * the line the rejection must carry; null: it must carry none
         */
        line?: number | null;
      };
    };
