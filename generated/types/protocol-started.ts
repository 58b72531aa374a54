// Generated from schemas/protocol-started.schema.json by scripts/generate-types.ts — do not edit.

/**
 * Adapter protocol, adapter to runner: the reply to protocol-start. It names the implementation, the conformance profiles it claims and the operations it has. The runner sends a run message only for a declared operation, and runs a vector only when its profile is claimed. See spec/adapter-protocol.md.
 */
export interface ProtocolStarted {
  /**
   * The protocol version the adapter speaks; the runner stops an adapter whose version differs from its own.
   */
  protocol: 1;
  implementation: ProtocolImplementation;
  /**
   * The profiles the implementation claims (spec/profiles.md).
   */
  profiles: ProtocolProfile[];
  /**
   * Every operation the adapter answers (spec/00-processing.md). A vector whose steps use another operation is skipped.
   */
  operations: ProtocolOperation[];
}

/**
 * Who is under test; printed in reports.
 */
export interface ProtocolImplementation {
  name: string;
  version: string;
  /**
   * The implementation's programming language, for example python or go.
   */
  language: string;
  /**
   * Where people can read about the implementation (a URL).
   */
  homepage?: string;
}

/**
 * A conformance profile of spec/profiles.md.
 */
export type ProtocolProfile =
  "reader" | "writer" | "relations" | "repair" | "compaction" | "fork" | "jsonl" | "storage";

/**
 * An operation of spec/00-processing.md.
 */
export type ProtocolOperation =
  | "load"
  | "append"
  | "surface"
  | "messages"
  | "requestHeader"
  | "requestContext"
  | "relations"
  | "repair"
  | "resume"
  | "compactionState"
  | "regionBalance"
  | "fork"
  | "decodeJsonl"
  | "encodeJsonl"
  | "artifactPath"
  | "store"
  | "headerEquals";
