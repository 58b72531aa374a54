// Where two long strings part, for a failure report. An encoder's text (encodeJsonl) differs from the
// expected one somewhere inside hundreds of characters, often at its very end (a line feed left out);
// the start of both strings, which a shortened value shows, is what they have in common.
import { characterCount, cutPoint } from './wording.ts'

/**
 * Where the first differing character is, in characters (code points, as check counts them): its index
 * from 0, its line and column from 1.
 */
export interface StringPosition {
  index: number
  line: number
  column: number
}

/** Up to the difference, shown before it, and from it, shown after it, in code units. */
const CONTEXT_BEFORE = 24
const CONTEXT_AFTER = 48

/** Strings at most this long are shown whole, which says more than an excerpt. */
const WHOLE_STRING_MOST = 80

/**
 * The first code unit where `a` and `b` differ, at a whole character (the shorter one's length when it
 * is a prefix of the other).
 */
function firstDifferingIndex(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length)
  let index = 0
  while (index < shorter && a.charCodeAt(index) === b.charCodeAt(index)) index += 1
  // Both hold the code unit before: when it starts a pair in either, the difference starts there.
  return cutPoint(a, index)
}

function positionOf(text: string, index: number): StringPosition {
  const before = text.slice(0, index)
  const lineStart = before.lastIndexOf('\n') + 1
  return { index: characterCount(before), line: before.split('\n').length, column: characterCount(before.slice(lineStart)) + 1 }
}

/**
 * The part of `text` around `index`, cut at whole characters, JSON-quoted, with … where it is cut; its
 * end named when it ends there.
 */
function excerpt(text: string, index: number): string {
  // Both ends move outward off a surrogate pair: the pair is shown whole rather than left out.
  const start = cutPoint(text, Math.max(0, index - CONTEXT_BEFORE))
  const cut = Math.min(text.length, index + CONTEXT_AFTER)
  const end = cutPoint(text, cut) < cut ? cut + 1 : cut
  const lead = start > 0 ? '…' : ''
  if (index >= text.length) return `${lead}${JSON.stringify(text.slice(start))} (the string ends there)`
  return `${lead}${JSON.stringify(text.slice(start, end))}${end < text.length ? '…' : ''}`
}

/**
 * Both strings around their first difference, and where it is; undefined when both are short enough
 * to be shown whole (or equal).
 */
export function stringDifference(expected: string, actual: string): { expected: string; actual: string; at: StringPosition } | undefined {
  if (expected === actual || Math.max(expected.length, actual.length) <= WHOLE_STRING_MOST) return undefined
  const index = firstDifferingIndex(expected, actual)
  return { expected: excerpt(expected, index), actual: excerpt(actual, index), at: positionOf(expected, index) }
}

/** "line 4, column 71", for the reason text. */
export function positionText(at: StringPosition): string {
  return `line ${at.line}, column ${at.column}`
}
