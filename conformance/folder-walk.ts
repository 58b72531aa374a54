// The files of a folder that a command reads (`check`'s logs, the vector files of `--vectors DIR`):
// walked in name order, into subfolders; a symbolic link to a folder is followed, since folders are
// often linked onto other volumes, but each real folder is walked once, so a link cycle ends (two
// links back to a folder would otherwise make 2^40 paths before the system's ELOOP stops them).
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { basename, resolve, sep } from 'node:path'

/**
 * An entry of the walk whose name is wanted: a file to read (a regular file, or a link to one or to
 * nothing, which is read to a clear I/O error), one that is no regular file (a pipe would wait for a
 * writer, a device may never end, met directly or through a link), one whose name is not valid UTF-8,
 * or a folder that cannot be read (with the error, for the caller to word).
 */
export type WalkedEntry =
  | { kind: 'file'; path: string }
  | { kind: 'not-regular'; path: string }
  | { kind: 'undecodable-name'; path: string }
  | { kind: 'unreadable-folder'; path: string; error: unknown }

/** The entries under `folder` whose names `wanted` takes, in name order, each real folder walked once. */
export function walkFolder(folder: string, wanted: (name: string) => boolean): WalkedEntry[] {
  const found: WalkedEntry[] = []
  walk(folder, wanted, found, new Set())
  return found
}

function walk(folder: string, wanted: (name: string) => boolean, into: WalkedEntry[], walked: Set<string>): void {
  let entries
  try {
    // The system's realpath: Node's own resolves a `..` by the text before it follows any link.
    const real = realpathSync.native(folder)
    if (walked.has(real)) return
    walked.add(real)
    entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch (error) {
    into.push({ kind: 'unreadable-folder', path: folder, error })
    return
  }
  for (const entry of entries) {
    const path = inFolder(folder, entry.name)
    if (entry.isDirectory() || (entry.isSymbolicLink() && isFolder(path))) walk(path, wanted, into, walked)
    else if (!wanted(entry.name)) continue
    else if (!namesAnEntry(path)) into.push({ kind: 'undecodable-name', path })
    else if (entry.isFile() || (entry.isSymbolicLink() && linksToFileOrNothing(path))) into.push({ kind: 'file', path })
    else into.push({ kind: 'not-regular', path })
  }
}

/**
 * The path of `name` in `folder`, the folder's path kept as it is (but `.`, whose files are named as
 * they are): path.join would resolve a `..` in it by the text, and through a link `link/..` is the
 * folder above the link's target, not the folder that holds the link.
 */
function inFolder(folder: string, name: string): string {
  if (folder === '.') return name
  return folder.endsWith('/') || folder.endsWith(sep) ? `${folder}${name}` : `${folder}${sep}${name}`
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
 * The name of a folder, as a run and a baseline name a folder of vectors: its last path segment as
 * written, so that a link keeps its own name; but the real folder's for a path that ends in `.` or `..`
 * (`link/..` is the folder above the link's target, `.` the working folder), while it exists.
 */
export function folderNameOf(dir: string): string {
  const last = basename(dir)
  if (last !== '..' && last !== '.' && last !== '') return basename(resolve(dir))
  try {
    return basename(realpathSync.native(dir))
  } catch {
    return basename(resolve(dir))
  }
}
