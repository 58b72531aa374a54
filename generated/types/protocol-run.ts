// Generated from schemas/protocol-run.schema.json by scripts/generate-types.ts — do not edit.

import type { JsonValue, NonNegativeSafeInteger } from './common.js'
import type { ProtocolOperation } from './protocol-started.js'

/**
 * Adapter protocol, runner to adapter: run one operation on one input. The adapter answers with exactly one protocol-result message carrying the same seq. See spec/adapter-protocol.md.
 */
export interface ProtocolRun {
  cmd: "run";
  /**
   * The request number, echoed by the reply. The runner counts up from 0 over the whole run, so a restarted process does not start at 0; an adapter only echoes it.
   */
  seq: NonNegativeSafeInteger;
  /**
   * The id of the vector being run, for the adapter's logs only.
   */
  case?: string;
  /**
   * The 0-based index of the step within the vector, for the adapter's logs only.
   */
  step?: NonNegativeSafeInteger;
  operation: ProtocolOperation;
  /**
   * The operation's input object (spec/00-processing.md), with values JSON cannot carry in the tagged form of vectors/README.md.
   */
  input: {
    [k: string]: JsonValue;
  };
}
