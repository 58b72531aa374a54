// The artifacts named by the command line: files as given, folders walked (sorted; a symbolic link to a
// folder is followed, since storage roots are often linked onto other volumes, but a folder is walked
// once, so a link cycle ends) for the names a session log can have.
import { readdirSync, realpathSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { errorMessage } from '../wording.ts'

const ARTIFACT_NAME = /\.jsonl(\.zstd?)?$/

export type Found = { kind: 'file'; path: string } | { kind: 'missing'; path: string; message: string }

function walk(folder: string, into: Found[], walked: Set<string>): void {
  let entries
  try {
    const real = realpathSync(folder)
    if (walked.has(real)) return
    walked.add(real)
    entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch (error) {
    into.push({ kind: 'missing', path: folder, message: errorMessage(error) })
    return
  }
  for (const entry of entries) {
    const path = join(folder, entry.name)
    if (entry.isDirectory() || (entry.isSymbolicLink() && isFolder(path))) walk(path, into, walked)
    else if ((entry.isFile() || entry.isSymbolicLink()) && ARTIFACT_NAME.test(entry.name)) into.push({ kind: 'file', path })
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

/** The file a path names, links followed, so that one file named twice is checked once. */
function fileIdentity(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return resolve(path)
  }
}

/** Each file once, where it was first named. */
function withoutRepeats(found: readonly Found[]): Found[] {
  const seen = new Set<string>()
  return found.filter(item => {
    if (item.kind !== 'file') return true
    const identity = fileIdentity(item.path)
    if (seen.has(identity)) return false
    seen.add(identity)
    return true
  })
}

/**
 * Every artifact under `paths`, in order, each file once (a file inside a folder also named is not
 * checked twice); a path that does not exist or holds no artifact is reported.
 */
export function findArtifacts(paths: readonly string[]): Found[] {
  const found: Found[] = []
  for (const path of paths) {
    let isFolder: boolean
    try {
      isFolder = statSync(path).isDirectory()
    } catch (error) {
      found.push({ kind: 'missing', path, message: errorMessage(error) })
      continue
    }
    if (!isFolder) {
      found.push({ kind: 'file', path })
      continue
    }
    const before = found.length
    walk(path, found, new Set())
    if (found.length === before) found.push({ kind: 'missing', path, message: `no *.jsonl, *.jsonl.zstd or *.jsonl.zst file under ${path}` })
  }
  return withoutRepeats(found)
}
