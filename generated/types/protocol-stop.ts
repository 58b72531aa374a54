// Generated from schemas/protocol-stop.schema.json by scripts/generate-types.ts — do not edit.

/**
 * Adapter protocol, runner to adapter: the last message of a run. The adapter sends no reply and exits with status 0. See spec/adapter-protocol.md.
 */
export interface ProtocolStop {
  cmd: "stop";
}
