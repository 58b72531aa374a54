// Generated from schemas/storage-header.schema.json by scripts/generate-types.ts — do not edit.

import type { NonNegativeSafeInteger } from './common.js'

/**
 * Immutable storage metadata of one session.
 */
export interface SessionHeader {
  /**
   * The format version; 0 for this format.
   */
  version: 0;
  /**
   * The session id.
   */
  id: string;
  /**
   * Creation time, Unix epoch milliseconds.
   */
  createdAt: NonNegativeSafeInteger;
  /**
   * Absolute working directory the session was created in, under the POSIX or the Windows convention (META-7): it starts with / or \, or with an ASCII letter, a colon and / or \.
   */
  cwd?: string;
  /**
   * The session this one was forked from.
   */
  parentSession?: string;
  /**
   * How many leading events were inherited through a seed.
   */
  seedLength?: NonNegativeSafeInteger;
  /**
   * Set for a session created as a subagent child.
   */
  origin?: "subagent";
  /**
   * Absent (zero) for a top-level session, parent depth plus one for a subagent child.
   */
  delegationDepth?: NonNegativeSafeInteger;
  /**
   * The agent preset the session was composed from.
   */
  agentPreset?: string;
}
