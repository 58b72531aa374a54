/**
 * Chapter 03: the session header. Checked in two phases of load (META-4): identity and version first,
 * the remaining members in the replay phase.
 */
import { fault, type Fault } from './result.ts'
import { hasOwn, isNonNegativeSafeInteger, isPlainRecord, type JsonRecord, type Snapshot } from './lossless-json.ts'
import { versionRefusal } from './format-version.ts'

/** The members chapter 03 names, in the order of its table (and of the JSONL header line, JSONL-5). */
export const HEADER_MEMBERS = ['version', 'id', 'createdAt', 'cwd', 'parentSession', 'seedLength', 'origin', 'delegationDepth', 'agentPreset'] as const

function invalidField(what: string): Fault {
  return fault('HEADER_FIELD_INVALID', `header ${what}`)
}

/** META-1..3 and the version value: the checks of the header phase. */
export function headerIdentityFault(header: unknown, sessionId: unknown): Fault | undefined {
  if (!isPlainRecord(header)) return fault('HEADER_NOT_OBJECT', 'the session header is not a plain JSON object')
  const id = header['id']
  // META-2: a named session needs a string id; a non-string id never equals it, even an equal value.
  if (sessionId !== undefined && (typeof id !== 'string' || id !== sessionId)) return fault('HEADER_ID_MISMATCH', `header id ${typeof id === 'string' ? JSON.stringify(id) : `(a ${id === null ? 'null' : typeof id})`} is not the session asked for`)
  if (typeof id !== 'string') return invalidField('id must be a string')
  if (typeof header['version'] !== 'number') return invalidField('version must be a number')
  return versionRefusal(header['version'])
}

/** META-7: absolute under the POSIX or the Windows convention, whatever platform reads it. */
export function isAbsolutePath(path: string): boolean {
  return /^[/\\]/.test(path) || /^[A-Za-z]:[/\\]/.test(path)
}

function optionalMemberFault(header: JsonRecord): Fault | undefined {
  const present = (key: string): boolean => hasOwn(header, key)
  if (present('parentSession') && typeof header['parentSession'] !== 'string') return invalidField('parentSession must be a string')
  if (present('seedLength') && !isNonNegativeSafeInteger(header['seedLength'])) return invalidField('seedLength must be a non-negative safe integer')
  if (present('origin') && header['origin'] !== 'subagent') return invalidField('origin must be "subagent"')
  if (present('delegationDepth') && !isNonNegativeSafeInteger(header['delegationDepth'])) return invalidField('delegationDepth must be a non-negative safe integer')
  if (present('agentPreset') && typeof header['agentPreset'] !== 'string') return invalidField('agentPreset must be a string')
  return undefined
}

/** META-5..8: the checks of the replay phase, on the snapshot of a header that passed the header phase. */
export function headerFieldsFault(snapshot: Snapshot): Fault | undefined {
  if (snapshot.fault !== undefined) return fault(snapshot.fault.code, `in the session header, ${snapshot.fault.message}`)
  const header = snapshot.value as JsonRecord
  if (!isNonNegativeSafeInteger(header['createdAt'])) return invalidField('createdAt must be a non-negative safe integer')
  if (hasOwn(header, 'cwd')) {
    const cwd = header['cwd']
    if (typeof cwd !== 'string') return invalidField('cwd must be a string')
    if (!isAbsolutePath(cwd)) return fault('HEADER_CWD_NOT_ABSOLUTE', `header cwd "${cwd}" is not an absolute path`)
  }
  return optionalMemberFault(header)
}
