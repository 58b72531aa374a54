// What the generators write under generated/. npm publishes the folder whole (package.json "files"), so
// `npm run check:generated` fails on any other file there: a stray one would ship.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, sep } from 'node:path'

export const GENERATED_DIR = 'generated'
/** generated/types/<schema>.ts and index.ts: scripts/generate-types.ts (`npm run generate`). */
export const TYPES_DIR = 'generated/types'
/** scripts/vectors-bundle.ts (`npm run vectors:bundle`). */
export const VECTOR_BUNDLE_FILE = 'generated/vectors.bundle.json'

/** Every file under `root`/`dir`, at any depth and of any extension, as a '/'-separated path from `root`. */
export function filesUnder(root: string, dir: string): string[] {
  const folder = join(root, dir)
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(join(folder, name)).isFile())
    .map((name) => `${dir}/${name.split(sep).join('/')}`)
    .sort()
}
