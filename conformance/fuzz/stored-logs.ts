// `fuzz --log PATH`: the stored session logs the runs take instead of generated ones. A path is a log
// file (raw JSONL, or zstd when its name ends in .zstd or .zst, as check tells them apart) or a folder
// walked for them as check walks one; each log is decoded by the reference, whose decoding is the
// spec's. A log that does not decode holds no events to probe, and one nested too deep cannot be
// copied: each is named with the reason, and the others are used. A path that names no log at all (a
// typo, a folder holding none) is a mistake the command stops at.
import { readFileSync } from 'node:fs'
import { reference } from '../../reference/index.ts'
import { encodingOf } from '../check/check-file.ts'
import { findArtifacts } from '../check/walk.ts'
import { fileErrorMessage } from '../wording.ts'

export interface StoredLog {
  file: string
  /** The decoded header (JSONL-7) and the records as stored, its torn tail left out (JSONL-11). */
  header: unknown
  events: readonly unknown[]
}

export interface StoredLogs {
  logs: StoredLog[]
  /** The logs met that could not be used, one line each: the path and why. They are passed over. */
  unusable: string[]
  /** The paths given that name no log: missing, unreadable, or a folder holding none; a mistake to stop at. */
  wrong: string[]
}

/**
 * The deepest nesting a stored log may hold: each run copies its log (structuredClone), as the probes
 * copy their inputs, and the copy recurses, overflowing the stack near 2,000 levels. check reads any depth.
 */
export const MOST_NESTING = 1_000

/** How many levels of arrays and objects the deepest value of `root` is nested, walked without recursion. */
function nestingDepth(root: unknown): number {
  let deepest = 0
  const stack: [unknown, number][] = [[root, 0]]
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [value, depth] = item
    if (typeof value !== 'object' || value === null) continue
    deepest = Math.max(deepest, depth + 1)
    for (const member of Object.values(value)) stack.push([member, depth + 1])
  }
  return deepest
}

/** The log in `file`, or why it cannot be used. */
function storedLog(file: string): StoredLog | string {
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch (error) {
    return `cannot read it: ${fileErrorMessage(error, file)}`
  }
  const decoded = reference.decodeJsonl({ base64: bytes.toString('base64'), encoding: encodingOf(file) })
  if (decoded.ok) {
    const { header, events } = decoded.value
    const depth = nestingDepth([header, events])
    // The pair and the list are two levels of the walk's own.
    if (depth - 2 > MOST_NESTING) return `it holds a value nested ${depth - 2} levels deep, past the ${MOST_NESTING} the fuzz copies (check reads it)`
    return { file, header, events }
  }
  const { code, line, message } = decoded.error
  return `decodeJsonl rejects it with ${code}${line === undefined ? '' : ` at line ${line}`} (${message}), so it holds no events to probe; \`dsh-conformance check\` says more`
}

/** "PATH: why", unless why names the path already. */
function namedWhy(path: string, why: string): string {
  return why.startsWith(path) ? why : `${path}: ${why}`
}

/** The logs `paths` name, in order, each file once. */
export function readStoredLogs(paths: readonly string[]): StoredLogs {
  const found: StoredLogs = { logs: [], unusable: [], wrong: [] }
  for (const item of findArtifacts(paths)) {
    if (item.kind !== 'file') {
      // A pipe or an undecodable name met in a folder is passed over; a path given is a mistake.
      const why = namedWhy(item.path, item.message)
      if (item.kind === 'folder' || paths.includes(item.path)) found.wrong.push(why)
      else found.unusable.push(why)
      continue
    }
    const log = storedLog(item.path)
    if (typeof log === 'string') found.unusable.push(namedWhy(item.path, log))
    else found.logs.push(log)
  }
  return found
}
