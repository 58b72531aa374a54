/**
 * Chapter 18 (FMT rules): the format version a v0 reader reads, and the direction of a refusal.
 */
import { fault, type Fault } from './result.ts'

export const FORMAT_VERSION = 0

/** A refusal for a numeric version other than 0; undefined for 0 and for non-numbers (not this rule's concern). */
export function versionRefusal(version: unknown): Fault | undefined {
  if (typeof version !== 'number' || version === FORMAT_VERSION) return undefined
  // Stryker disable next-line EqualityOperator: version 0 returned earlier, so >= and > agree
  return version > FORMAT_VERSION
    ? fault('FORMAT_VERSION_NEWER', `log format v${version} is newer than v${FORMAT_VERSION}: upgrade the reader`)
    : fault('FORMAT_VERSION_OLDER', `log format v${version} is older than v${FORMAT_VERSION}, and no upgrade path exists`)
}
