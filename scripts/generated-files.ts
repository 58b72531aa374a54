// What the generators write under generated/. npm publishes the folder whole (package.json "files"), so
// `npm run check:generated` fails on any other file there that npm packs: a stray one would ship. Also the walk of a
// folder that scripts/mutation-inputs.ts shares.
import { existsSync, lstatSync, readdirSync } from 'node:fs'
import { join, sep } from 'node:path'

export const GENERATED_DIR = 'generated'
/** generated/types/<schema>.ts and index.ts: scripts/generate-types.ts (`npm run generate`). */
export const TYPES_DIR = 'generated/types'
/** scripts/vectors-bundle.ts (`npm run vectors:bundle`). */
export const VECTOR_BUNDLE_FILE = 'generated/vectors.bundle.json'

// Files npm never packs, whatever "files" says: a Finder's .DS_Store and ._ twins, an editor's swap
// file, a merge's leftover, npm's own settings. They cannot ship, so they are no stray of generated/.
// A .gitignore stays a stray: npm does not pack it, but it reads it, and one here could leave files out.
const NEVER_PACKED = /(^|\/)(\.DS_Store|\._[^/]*|\.[^/]*\.swp|[^/]*\.orig|npm-debug\.log|\.npmrc)$/

/** Whether npm leaves the file at `path` out of every package it packs. */
export function isNeverPacked(path: string): boolean {
  return NEVER_PACKED.test(path)
}

/**
 * Every file under `root`/`dir`, at any depth and of any extension, as a '/'-separated path from `root`,
 * in order. A symbolic link counts as a file, not followed: a broken one is named, not a crash.
 */
export function filesUnder(root: string, dir: string): string[] {
  const folder = join(root, dir)
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => !lstatSync(join(folder, name)).isDirectory())
    .map((name) => `${dir}/${name.split(sep).join('/')}`)
    .sort()
}
