// Generated from schemas/vector-bundle.schema.json by scripts/generate-types.ts — do not edit.

import type { ProtocolOperation, ProtocolProfile } from './protocol-started.js'
import type { Expectation } from './vector-file.js'

/**
 * The suite's cases, in suite order, and the identity of the suite they make up.
 */
export interface VectorBundle {
  /**
   * The $id of this schema.
   */
  $schema: "https://dsh-session-conformance.dev/schemas/v0/vector-bundle.schema.json";
  /**
   * Says that the file is generated, by which command, and from what.
   */
  comment: string;
  /**
   * The suite's package version.
   */
  suiteVersion: string;
  /**
   * sha256 of the expanded cases, as reports and baselines name the suite.
   */
  contentHash: string;
  /**
   * The number of cases.
   */
  caseCount: number;
  /**
   * @minItems 1
   */
  cases: [BundleCase, ...BundleCase[]];
}

/**
 * One case, expanded: the members of vectors/README.md, its steps with complete inputs.
 */
export interface BundleCase {
  id: string;
  title: string;
  /**
   * The YAML file the case comes from, relative to the project root.
   */
  file: string;
  chapter: string;
  /**
   * @minItems 1
   */
  requirements: [string, ...string[]];
  profile: ProtocolProfile;
  review: boolean;
  /**
   * @minItems 1
   */
  steps: [BundleStep, ...BundleStep[]];
}

/**
 * One operation and what it must return. An accepted append expects exactly its event, as a value. Tagged values stay tagged in the input and in an expected value (vectors/README.md, Using the bundle from another language).
 */
export interface BundleStep {
  operation: ProtocolOperation;
  /**
   * The operation's whole input (spec/00-processing.md), tagged values still tagged; `events` is in every one, an empty list when the case has no log.
   */
  input: {
    /**
     * The log, in the tagged form: a list, or a tagged value that decodes to an array with a hole or a named property (the cases of JSON-13 on the events array itself).
     */
    events:
      | unknown[]
      | {
          $dsh: "sparse-array" | "array-property";
        };
  };
  /**
   * A rejection names where it lies: its seq, its line, or both (null: the rejection must carry none). A seq left out is not compared; a line left out is not compared for decodeJsonl and means null for every other operation, since only JSONL input has lines (vectors/README.md).
   */
  expect: Expectation;
}
