// Generated from schemas/vocabulary.schema.json by scripts/generate-types.ts — do not edit.

import type { NonEmptyString } from './common.js'

/**
 * A list of distinct event type names.
 */
export type EventTypeList = NonEmptyString[];

/**
 * One vocabulary version.
 */
export interface VocabularyVersion {
  description: NonEmptyString;
  knownEventTypes: EventTypeList;
  surfaceEventTypes: EventTypeList;
}

/**
 * All vocabulary versions of one format version, keyed by a name that starts with v0-.
 */
export interface Vocabulary {
  formatVersion: 0;
  versions: {
    [k: string]: VocabularyVersion;
  };
}
