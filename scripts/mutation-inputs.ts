// The stamp of what decides a mutation run's result, one sha256 that docs/mutation.md and
// docs/mutation-directives.md carry on their "Inputs" line. A Stryker run takes most of an hour here,
// too long for CI, so `npm run check:mutation` (scripts/check-mutation.ts) recomputes the stamp instead
// and fails when a report was written from other inputs.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { filesUnder } from './generated-files.ts'

const STRYKER_CONFIG = 'stryker.config.mjs'
/** Its version decides which mutants there are. */
const STRYKER_PACKAGE = '@stryker-mutator/core'

/**
 * What decides the mutants and the lines the reports cite, besides the mutated files. Left out on
 * purpose, as they change often: the vectors and the runner's judge of a case (conformance/run-case.ts,
 * expectations.ts, held by their own tests). A new vector can only kill more mutants, but a removed or
 * loosened one may let one live, which CI does not see: run `npm run mutation` after such a change.
 * Otherwise every change to the vectors would fail CI until up to two hours of Stryker had run.
 */
export const MUTATION_INPUT_FILES = [
  STRYKER_CONFIG,
  'scripts/stryker-plugins.mjs', // the free-text-messages ignorer
  'vitest.mutation.config.ts', // the killing run: the golden vectors alone
  'tests/mutation/vectors.mutation.ts',
] as const

export interface InputsStamp {
  sha256: string
  /** The line a report carries. */
  line: string
}

const STAMP_LINE = /^- Inputs: sha256 ([0-9a-f]{64})\b/m
const WILDCARDS: Record<string, string> = { '**/': '(?:[^/]+/)*', '**': '.*', '*': '[^/]*', '?': '[^/]' }

/** Compares UTF-16 code units, not a locale's collation: a report reads the same whatever LANG says. */
export function byOrdinal(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

/** A `mutate` glob as a RegExp over '/'-separated paths; only `**`, `*` and `?` are read. */
export function globRegExp(glob: string): RegExp {
  if (/[[\]{}()!:]/.test(glob)) {
    throw new Error(`${STRYKER_CONFIG}: the mutate pattern ${glob} uses glob syntax scripts/mutation-inputs.ts does not read`)
  }
  const source = glob
    .split(/(\*\*\/|\*\*|\*|\?)/)
    .map(part => WILDCARDS[part] ?? part.replace(/[.+^$|\\]/g, '\\$&'))
    .join('')
  return new RegExp(`^${source}$`)
}

/** The folder a glob's matches are under: its segments before the first with a wildcard. */
function fixedFolder(glob: string): string {
  const segments = glob.split('/')
  const firstWild = segments.findIndex(segment => /[*?]/.test(segment))
  const folder = segments.slice(0, firstWild === -1 ? -1 : firstWild).join('/')
  // A pattern from the root would walk node_modules as well.
  if (folder === '') throw new Error(`${STRYKER_CONFIG}: the mutate pattern ${glob} names no folder, which scripts/mutation-inputs.ts needs`)
  return folder
}

/** The files Stryker mutates, from the `mutate` patterns ("!pattern" takes files out), in ordinal order. */
export function mutatedFiles(root: string, patterns: readonly string[]): string[] {
  const included = new Set<string>()
  for (const pattern of patterns.filter(candidate => !candidate.startsWith('!'))) {
    const matches = globRegExp(pattern)
    for (const file of filesUnder(root, fixedFolder(pattern))) if (matches.test(file)) included.add(file)
  }
  for (const pattern of patterns.filter(candidate => candidate.startsWith('!'))) {
    const matches = globRegExp(pattern.slice(1))
    for (const file of included) if (matches.test(file)) included.delete(file)
  }
  return [...included].sort(byOrdinal)
}

async function mutatePatterns(root: string): Promise<string[]> {
  const config = (await import(pathToFileURL(join(root, STRYKER_CONFIG)).href)) as { default: { mutate?: string[] } }
  const patterns = config.default.mutate
  if (patterns === undefined) throw new Error(`${STRYKER_CONFIG} names no mutate patterns`)
  return patterns
}

function strykerVersion(root: string): string {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> }
  return manifest.devDependencies?.[STRYKER_PACKAGE] ?? 'not a dev dependency'
}

/** Where `npm run mutation` keeps the stamp of the inputs its run started from (scripts/mutation-stamp.ts). */
export const MUTATION_START_STAMP = 'reports/mutation/inputs.json'

/** The stamp of the project at `root`: each input file's sha256 and the Stryker version. */
export async function mutationInputsStamp(root: string): Promise<InputsStamp> {
  const patterns = await mutatePatterns(root)
  const mutated = mutatedFiles(root, patterns)
  const version = strykerVersion(root)
  const parts = [
    ...[...mutated, ...MUTATION_INPUT_FILES].map(file => `${file} ${sha256(readFileSync(join(root, file)))}`),
    `${STRYKER_PACKAGE} ${version}`,
  ]
  const digest = sha256(parts.join('\n'))
  const inputs = [`${patterns.join(', ')} (${mutated.length} files)`, ...MUTATION_INPUT_FILES]
  const line = `- Inputs: sha256 ${digest} of ${inputs.join(', ')} and ${STRYKER_PACKAGE} ${version} (\`npm run check:mutation\`)`
  return { sha256: digest, line }
}

/** The sha256 of a report's Inputs line, undefined when it has none. */
export function stampedSha256(report: string): string | undefined {
  return STAMP_LINE.exec(report)?.[1]
}
