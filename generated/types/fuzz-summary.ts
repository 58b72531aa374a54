// Generated from schemas/fuzz-summary.schema.json by scripts/generate-types.ts — do not edit.

/**
 * One fuzz run of one adapter against the reference.
 */
export interface FuzzSummary {
  /**
   * The $id of this schema.
   */
  $schema: "https://dsh-session-conformance.dev/schemas/v0/fuzz-summary.schema.json";
  /**
   * The adapter's name@version.
   */
  adapter: string;
  seed: number;
  /**
   * The runs asked for (--runs).
   */
  runs: number;
  /**
   * The largest target size of a run's log (--max-events): with the seed, what makes run N draw the same log again. With --log, the most events a run took of a stored log: --max-events, or the longest log's count when that is fewer.
   */
  maxEvents: number;
  /**
   * The runs done: fewer than asked when the time budget stopped the run, or the adapter's crashes and timeouts did.
   */
  runsDone: number;
  stoppedByBudget: boolean;
  /**
   * True when the fuzz stopped asking the adapter because it crashed or timed out on 10 compared probes in a row (as run stops after 10 such cases); runsDone says how far it got.
   */
  stoppedByFailures: boolean;
  /**
   * The operations compared: those the adapter provides under a profile it claims.
   */
  operations: string[];
  /**
   * How many operation inputs the runs yielded. One whose result the spec leaves open (an operation over a log that load rejects, say) is given to the reference only.
   */
  probes: number;
  /**
   * How many of the probes the adapter was given and judged on: those whose result the spec defines (an error, a crash or a timeout of the adapter counts, as a failure).
   */
  compared: number;
  /**
   * The probes, the compared probes and the reference's rejections among those, per operation compared: what the adapter was judged on, acceptances and rejections apart.
   */
  byOperation: {
    [k: string]: {
      probes: number;
      compared: number;
      /**
       * How many of the compared probes the reference rejects.
       */
      rejected: number;
    };
  };
  /**
   * How many of the runs done each mutation operator broke (a run with two faults counts for each), and under `(valid)` how many no operator broke. Every operator is listed, 0 for one the runs never drew: more runs draw it. A run over a stored log (--log) counts under none.
   */
  mutations: {
    [k: string]: number;
  };
  /**
   * How many of the runs done had their log rewritten into the older shapes readers upgrade, or (--log) took a stored log holding them.
   */
  olderShapes: number;
  /**
   * With --log: the stored logs the runs took in turn (run N takes log N mod their count), those that decode, in the order found. Absent for generated logs.
   */
  logs?: string[];
  /**
   * With --vocabulary: the vocabulary the probes that take one read the stored logs with (load's input, PROC-9): v0-pinned or v0-rc8.
   */
  vocabulary?: string;
  /**
   * One entry per class of disagreement, in the order found.
   */
  findings: FuzzFinding[];
}

/**
 * A class of disagreement: an operation, the reference's outcome and how the adapter departs from it.
 */
export interface FuzzFinding {
  /**
   * The class, as the console and --known files name it: `operation (older shapes) (a record no object): reference …, adapter …`, each parenthesis only where it applies.
   */
  signature: string;
  operation: string;
  /**
   * `accepts` or `rejects CODE`.
   */
  reference: string;
  /**
   * `accepts`, `rejects CODE`, `differs at PATH`, `lacks …`, `cannot handle it` for an input the adapter answered unsupported, or `fails: …` for a failure of the adapter.
   */
  adapter: string;
  /**
   * The known class (--known) it falls in; absent for a new class and for every failure.
   */
  known?: string;
  /**
   * The first run that showed it.
   */
  firstRun: number;
  /**
   * The operator (or two, joined by ` + `) that broke that run's log; absent for a valid log.
   */
  mutation?: string;
  /**
   * With --log: the stored log that run took.
   */
  log?: string;
  /**
   * Present when that run's log was in older shapes.
   */
  olderShapes?: true;
  /**
   * How many probes showed it.
   */
  occurrences: number;
  /**
   * What differed, for people.
   */
  detail: string;
  /**
   * The seq at which the two sides first diverge, when one is known.
   */
  divergingSeq?: number;
  /**
   * The events of the log before shrinking.
   */
  eventsBefore: number;
  /**
   * The events after shrinking.
   */
  eventsAfter: number;
  /**
   * How many candidate logs the shrinker tried.
   */
  shrinkChecks: number;
  vector?: FuzzVector;
  /**
   * Why the written vector does not reproduce the disagreement; absent when it does.
   */
  problem?: string;
}

/**
 * The one-case vector written for a class, marked `review: true`.
 */
export interface FuzzVector {
  id: string;
  /**
   * The file, relative to the output folder.
   */
  file: string;
  chapter: string;
  requirements: string[];
}
