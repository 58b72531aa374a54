// Generated from schemas/surface-op.schema.json by scripts/generate-types.ts — do not edit.

import type { Seq } from './common.js'

/**
 * Closed union: "append" or a ReplaceSurfaceOp. The string "replace" is not a surface operation.
 */
export type SurfaceOp = "append" | ReplaceSurfaceOp;

/**
 * Replace the current surface nodes from start through end (both inclusive, by surface position) with the event carrying this operation. start may equal end.
 */
export interface ReplaceSurfaceOp {
  op: "replace";
  start: Seq;
  end: Seq;
}
