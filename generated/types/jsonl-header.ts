// Generated from schemas/jsonl-header.schema.json by scripts/generate-types.ts — do not edit.

import type { NonNegativeSafeInteger } from './common.js'
import type { SessionHeader } from './storage-header.js'

/**
 * A session header line.
 */
export type JsonlHeaderLine = SessionHeader & {
  type: "session";
  delegationDepth: NonNegativeSafeInteger;
  sandboxMode?: never;
  approvalPolicy?: never;
};
