// Generated from schemas/protocol-result.schema.json by scripts/generate-types.ts — do not edit.

import type { JsonValue, NonNegativeSafeInteger, PositiveSafeInteger } from './common.js'

/**
 * Adapter protocol, adapter to runner: the reply to one protocol-run message. Either the operation's result (an acceptance or a rejection, both judged against the vector, or an input the implementation cannot handle by design, which fails the step) or an implementation failure, which the runner records as an error, never as a pass. See spec/adapter-protocol.md.
 */
export type ProtocolResult = ProtocolResultReply | ProtocolFailureReply;

/**
 * The operation ran and produced a result.
 */
export interface ProtocolResultReply {
  seq: NonNegativeSafeInteger;
  result: ProtocolAccepted | ProtocolRejected | ProtocolUnsupported;
}

/**
 * The operation succeeded with this value (tagged form for values JSON cannot carry).
 */
export interface ProtocolAccepted {
  ok: true;
  /**
   * The operation's value; null is a value like any other.
   */
  value: JsonValue;
}

/**
 * The operation rejected its input (PROC-1).
 */
export interface ProtocolRejected {
  ok: false;
  error: ProtocolRejection;
}

/**
 * The implementation cannot handle this input by design (an encoding it has no decoder for): the step fails, never passes, and a baseline may list the case.
 */
export interface ProtocolUnsupported {
  ok: false;
  /**
   * What the implementation lacks, for people: not empty, nor blank.
   */
  unsupported: string;
}

/**
 * A rejection: a code of spec/errors.md and where the fault lies. Whether the code is right is for the vector to judge, not the protocol.
 */
export interface ProtocolRejection {
  code: string;
  /**
   * The seq of the event at fault; absent or null when the fault has none.
   */
  seq?: NonNegativeSafeInteger | null;
  /**
   * The line at fault in a stored artifact; absent or null when the fault has none.
   */
  line?: PositiveSafeInteger | null;
  message?: string;
}

/**
 * The implementation failed while running the operation (an exception, resources it ran out of): not a rejection. The runner records the step as an error and keeps the process.
 */
export interface ProtocolFailureReply {
  seq: NonNegativeSafeInteger;
  error: {
    message: string;
    traceback?: string;
  };
}
