/**
 * The arrays an operation is given, read by the elements they hold: a sparse array (vectors/README.md)
 * may have a length of 2^32 - 1 and a single element, and reading it index by index would take hours.
 */
import { isArrayIndex } from './lossless-json.ts'

/** An array input, or none: operations are defined for arrays (spec/00-processing.md). */
export function recordsOf(value: unknown): readonly unknown[] {
  // Stryker disable next-line ArrayDeclaration: a non-array input is outside every operation
  return Array.isArray(value) ? value : []
}

/** The indices that hold an element of `array`, ascending: its holes and other properties left out. */
export function heldIndices(array: readonly unknown[]): number[] {
  // Object.keys lists an array's indices first, ascending.
  return Object.keys(array).filter(isArrayIndex).map(Number)
}

/** The elements `array` holds, in order, without its holes. */
export function heldElements(array: readonly unknown[]): unknown[] {
  return heldIndices(array).map(index => array[index])
}
