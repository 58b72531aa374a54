// Generated from schemas/protocol-start.schema.json by scripts/generate-types.ts — do not edit.

/**
 * Adapter protocol, runner to adapter: the first message a new adapter process receives, naming the protocol version the runner speaks. The adapter answers with a protocol-started reply. See spec/adapter-protocol.md.
 */
export interface ProtocolStart {
  cmd: "start";
  /**
   * The protocol version of the runner. This file describes version 1.
   */
  protocol: 1;
}
