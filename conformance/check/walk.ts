// The artifacts named by the command line: files as given, folders walked (sorted; a symbolic link to a
// folder is followed, since storage roots are often linked onto other volumes, but a folder is walked
// once, so a link cycle ends) for the names a session log can have.
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
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

function walk(folder: string, into: Found[], walked: Set<string>): void {
  let entries
  try {
    const real = realpathSync(folder)
    if (walked.has(real)) return
    walked.add(real)
    entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch (error) {
    into.push({ kind: 'folder', path: folder, message: fileErrorMessage(error, folder) })
    return
  }
  for (const entry of entries) {
    const path = join(folder, entry.name)
    if (entry.isDirectory() || (entry.isSymbolicLink() && isFolder(path))) walk(path, into, walked)
    else if (!ARTIFACT_NAME.test(entry.name)) continue
    else if (!namesAnEntry(path)) into.push({ kind: 'unreadable', path, message: `its name is not valid UTF-8: ${UNDECODABLE_NAME}` })
    else if (entry.isFile() || (entry.isSymbolicLink() && linksToFileOrNothing(path))) into.push({ kind: 'file', path, otherNames: [] })
    // A named pipe would wait for a writer, a device may never end (met directly or through a link);
    // named on the command line, it is read like any file.
    else into.push({ kind: 'unreadable', path, message: `${path} is named like a session log but is not a regular file (a pipe, socket or device), which a folder walk does not read; name it on the command line to read it` })
  }
}

/**
 * Whether a name met in a folder opens what it names. One that is not valid UTF-8 does not: Node
 * decodes it with U+FFFD for each byte it cannot decode, and no entry goes by the name so made.
 */
function namesAnEntry(path: string): boolean {
  if (!path.includes('\uFFFD')) return true
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

/** Whether a link leads to a regular file, or to nothing (a dangling link is read, to a clear I/O error). */
function linksToFileOrNothing(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return true
  }
}

/** Whether `path` is a folder, following links; a dangling link is not (it is then read as a file). */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/**
 * The file a path names, links followed: so that one file named twice is checked once, and read by
 * the same encoding whichever of its names came first. Standard input is itself.
 */
export function realPathOf(path: string): string {
  if (path === STDIN) return path
  try {
    return realpathSync(path)
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
 * Every artifact under `paths`, in order, each file once (a file inside a folder also named is not
 * checked twice); a path that does not exist, or a folder that cannot be read or holds no artifact,
 * is reported.
 */
export function findArtifacts(paths: readonly string[]): Found[] {
  const found: Found[] = []
  for (const path of paths) {
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
    const before = found.length
    walk(path, found, new Set())
    if (found.length === before) found.push({ kind: 'folder', path, message: `no *.jsonl, *.jsonl.zstd or *.jsonl.zst file under ${path}` })
  }
  return withoutRepeats(found)
}
