// The artifacts named by the command line: files as given, folders walked (conformance/folder-walk.ts:
// sorted, linked folders followed, each folder once) for the names a session log can have.
import { realpathSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { walkFolder, type WalkedEntry } from '../folder-walk.ts'
import { fileErrorMessage, UNDECODABLE_NAME } from '../wording.ts'
import { STDIN } from './options.ts'

const ARTIFACT_NAME = /\.jsonl(\.zstd?)?$/

/**
 * What the command line names: a file to check (the path it was first named by, and the other names it
 * was given: links, or the same path spelled otherwise), a file that cannot be read as one (a missing
 * path, a pipe met in a folder), or a folder that yields no file (unreadable, or a named one that holds
 * no log).
 */
export type Found =
  | { kind: 'file'; path: string; otherNames: string[] }
  | { kind: 'unreadable'; path: string; message: string }
  | { kind: 'folder'; path: string; message: string }

/** What `check` makes of an entry of a folder walk. */
function foundOf(entry: WalkedEntry): Found {
  switch (entry.kind) {
    case 'file': return { kind: 'file', path: entry.path, otherNames: [] }
    case 'undecodable-name': return { kind: 'unreadable', path: entry.path, message: `its name is not valid UTF-8: ${UNDECODABLE_NAME}` }
    // Named on the command line, a pipe or device is read like any file.
    case 'not-regular': return { kind: 'unreadable', path: entry.path, message: `${entry.path} is named like a session log but is not a regular file (a pipe, socket or device), which a folder walk does not read; name it on the command line to read it` }
    case 'unreadable-folder': return { kind: 'folder', path: entry.path, message: fileErrorMessage(entry.error, entry.path) }
  }
}

/**
 * The file a path names, links followed: so that one file named twice is checked once, and read by
 * the same encoding whichever of its names came first. Standard input is itself.
 */
export function realPathOf(path: string): string {
  if (path === STDIN) return path
  try {
    return realpathSync.native(path)
  } catch {
    return resolve(path)
  }
}

/**
 * Each file once, where it was first named, with the other names it was given: a name in the storage
 * layout binds the file wherever it comes (JSONL-3), so its verdict does not depend on their order.
 */
function withoutRepeats(found: readonly Found[]): Found[] {
  const kept: Found[] = []
  const firstNamed = new Map<string, Found & { kind: 'file' }>()
  for (const item of found) {
    if (item.kind !== 'file') {
      kept.push(item)
      continue
    }
    const identity = realPathOf(item.path)
    const first = firstNamed.get(identity)
    if (first === undefined) {
      const entry = { ...item, otherNames: [...item.otherNames] }
      firstNamed.set(identity, entry)
      kept.push(entry)
    } else if (first.path !== item.path && !first.otherNames.includes(item.path)) {
      first.otherNames.push(item.path)
    }
  }
  return kept
}

/**
 * A path as check prints it, and as `--known` globs match it: without `.` parts and doubled slashes
 * (`./logs//a.jsonl` as `logs/a.jsonl`), so that a file has one name however it was spelled, named
 * or met in a walk of a folder so spelled. A `..` stays: through a link, `link/..` is not the folder
 * that holds the link. So does a final slash, which says the path must be a folder (`a.jsonl/` is no
 * file to check).
 */
function printedPath(path: string): string {
  if (path === STDIN || path === '') return path
  const relative = path.split('/').filter(part => part !== '' && part !== '.').join('/')
  const absolute = path.startsWith('/')
  if (relative === '') return absolute ? '/' : '.'
  const folderOnly = /\/\.?$/.test(path) ? '/' : ''
  return `${absolute ? '/' : ''}${relative}${folderOnly}`
}

/**
 * Every artifact under `paths`, in order, each file once (a file inside a folder also named is not
 * checked twice); a path that does not exist, or a folder that cannot be read or holds no artifact,
 * is reported.
 */
export function findArtifacts(paths: readonly string[]): Found[] {
  const found: Found[] = []
  for (const path of paths.map(printedPath)) {
    let isFolder: boolean
    try {
      isFolder = statSync(path).isDirectory()
    } catch (error) {
      found.push({ kind: 'unreadable', path, message: fileErrorMessage(error, path) })
      continue
    }
    if (!isFolder) {
      found.push({ kind: 'file', path, otherNames: [] })
      continue
    }
    // A shell's `< FOLDER`: its files have no names under /dev/stdin to report or to match.
    if (path === STDIN) {
      found.push({ kind: 'unreadable', path, message: 'standard input is a folder: name the folder instead' })
      continue
    }
    const walked = walkFolder(path, name => ARTIFACT_NAME.test(name))
    found.push(...walked.map(foundOf))
    if (walked.length === 0) found.push({ kind: 'folder', path, message: `no *.jsonl, *.jsonl.zstd or *.jsonl.zst file under ${path}` })
  }
  return withoutRepeats(found)
}
