// JSONL-3 for files in the storage layout. A file named session.jsonl or session.jsonl.zstd is taken
// to sit at <root>/<project>/<segment>/, and the header's id and cwd must derive exactly that project
// and segment (JSONL-1, JSONL-2); on a case-insensitive file system the derived path may differ in case
// as long as it names the same file. A file named otherwise is a lone artifact: no path binds it.
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { reference } from '../../reference/index.ts'
import type { JsonRecord } from '../../reference/lossless-json.ts'

const ARTIFACT_NAMES = { raw: 'session.jsonl', zstd: 'session.jsonl.zstd' }

/** The way out for a log copied out of its place, for people. */
const LONE_COPY = ' (a copy taken out of the layout is read as a lone artifact with --no-layout, once it has another name, or through a pipe)'

function sameFile(first: string, second: string): boolean {
  if (!existsSync(second)) return false
  const [a, b] = [statSync(first), statSync(second)]
  return a.dev === b.dev && a.ino === b.ino
}

/** Why the file's place in the layout contradicts its header; undefined when it does not, or is not in a layout. */
export function pathBindingFault(file: string, encoding: 'raw' | 'zstd', header: JsonRecord): string | undefined {
  if (path.basename(file) !== ARTIFACT_NAMES[encoding]) return undefined
  const resolved = path.resolve(file)
  const place = resolved.split(path.sep).slice(-3).join('/')
  const derived = reference.artifactPath({ sessionId: header['id'], cwd: header['cwd'], encoding })
  if (!derived.ok) return `the header's id or cwd is empty or not a string, so no artifact path derives from it; the file is at …/${place}${LONE_COPY}`
  if (derived.value.path === place) return undefined
  const root = path.dirname(path.dirname(path.dirname(resolved)))
  if (sameFile(resolved, path.join(root, ...derived.value.path.split('/')))) return undefined
  return `the header's id and cwd place this session at <root>/${derived.value.path}, but the file is at …/${place}${LONE_COPY}`
}
