// Generated from schemas/common.schema.json by scripts/generate-types.ts — do not edit.

/**
 * An integer n with -(2^53-1) <= n <= 2^53-1.
 */
export type SafeInteger = number;

/**
 * A safe integer that is 0 or more.
 */
export type NonNegativeSafeInteger = number;

/**
 * A safe integer that is 1 or more.
 */
export type PositiveSafeInteger = number;

/**
 * An event sequence number: the 0-based position of an event in its session log.
 */
export type Seq = NonNegativeSafeInteger;

/**
 * A string of at least one character.
 */
export type NonEmptyString = string;

/**
 * Any lossless JSON value: null, a boolean, a finite number, a string, an array of JSON values or an object whose member values are JSON values.
 */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | {
      [k: string]: JsonValue;
    };
