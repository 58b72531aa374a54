// Known divergences (`fuzz --known FILE`): classes of disagreement an implementation is known to have,
// each tied to a finding, so a fuzz run in CI reports them and fails only on a class nobody has
// explained. A class matches a disagreement's operation, the reference's outcome, the adapter's
// departure, each by a glob (`*` any run of characters, `?` one), and two traits of the log it was found
// on: its shapes (`older` for a class found on a log rewritten into the shapes readers upgrade and not
// on the same log in current shapes, else `current`) and its records (`not-all-objects` when one of
// them is no object, else `objects`). A missing member matches anything, and the first class that
// matches is the one reported. A failure of the adapter (it threw, timed out or crashed) is never
// known, whatever the file says. schemas/known-divergences.schema.json gives the file's shape.
//
//   adapters: [dsh-session@*]          # globs over adapter names the file applies to
//   known:
//     - class: U17                      # the finding (docs/findings.md)
//       operation: '*'
//       reference: accepts
//       adapter: rejects HEADER_CWD_NOT_ABSOLUTE
//       why: cwd is absolute by the running platform
import { compileGlob } from '../filters.ts'
import type { KnownClass, KnownDivergences } from '../../generated/types/index.ts'
import { isRecord } from '../../reference/lossless-json.ts'
import { adapterSide, recordsOf, shapesOf, type Disagreement } from './compare.ts'
import { NO_LINES, parseYamlText, readGivenFile, refusalOf, unknownMembers, type LineAt } from '../yaml-text.ts'

// The file's shape is schemas/known-divergences.schema.json; its types are generated from it.
export type { KnownClass, KnownDivergences }

const MATCHED = ['operation', 'reference', 'adapter', 'shapes', 'records'] as const
/** The matched members that name one of a few traits of the log, not globs. */
const TRAITS: Record<'shapes' | 'records', readonly string[]> = { shapes: ['current', 'older'], records: ['objects', 'not-all-objects'] }

/** Reads a known-divergences file; throws an Error naming what is wrong, and where. */
export function readKnownDivergences(path: string): KnownDivergences {
  const { value, lineAt } = parseYamlText(readGivenFile(path, 'known-divergences file'), path)
  return knownDivergencesFrom(value, path, lineAt)
}

/**
 * Checks a known-divergences file given as a value (as parsed); throws an Error naming `source` and what
 * is wrong, at its line when `lineAt` knows it.
 */
export function knownDivergencesFrom(document: unknown, source: string, lineAt: LineAt = NO_LINES): KnownDivergences {
  const fail = refusalOf('known-divergences file', source, lineAt)
  if (!isRecord(document)) return fail('expected a mapping with adapters and known')
  const stray = unknownMembers(document, ['adapters', 'known'])
  if (stray !== undefined) fail(`it ${stray.text}`, [], stray.first)
  const { adapters, known } = document
  if (!Array.isArray(adapters) || adapters.some(name => typeof name !== 'string')) fail('adapters must be a list of name globs', [], 'adapters')
  if (!Array.isArray(known)) return fail('known must be a list of classes', [], 'known')
  const classes = known.map((entry, index): KnownClass => {
    const at = ['known', index]
    if (!isRecord(entry) || typeof entry['class'] !== 'string' || entry['class'] === '') return fail(`known[${index}] needs a class`, at)
    // A misspelt why (`wy:`) is named as such, not as a missing why.
    const strayInEntry = unknownMembers(entry, ['class', 'why', ...MATCHED])
    if (strayInEntry !== undefined) fail(`known[${index}] (${entry['class']}) ${strayInEntry.text}`, at, strayInEntry.first)
    if (typeof entry['why'] !== 'string' || entry['why'].trim() === '') return fail(`known[${index}] (${entry['class']}) needs a why`, at)
    for (const key of MATCHED) if (entry[key] !== undefined && typeof entry[key] !== 'string') fail(`known[${index}].${key} must be a glob`, at, key)
    if (MATCHED.every(key => entry[key] === undefined)) {
      fail(`known[${index}] (${entry['class']}) gives none of ${MATCHED.join(', ')}, so it would excuse every disagreement: give at least one (\`*\` matches anything)`, at)
    }
    for (const [key, traits] of Object.entries(TRAITS)) {
      if (entry[key] !== undefined && !traits.includes(entry[key] as string)) fail(`known[${index}].${key} must be ${traits.join(' or ')}, not "${String(entry[key])}"`, at, key)
    }
    return entry as unknown as KnownClass
  })
  return { adapters: adapters as string[], known: classes }
}

export function appliesTo(divergences: KnownDivergences, adapterName: string): boolean {
  return divergences.adapters.some(glob => compileGlob(glob).test(adapterName))
}

/**
 * The first known class the disagreement falls in, if any. A failure (the adapter threw, timed out,
 * crashed or gave no readable answer) falls in none: it says nothing about the rules, so no file can
 * excuse it, as no run baseline can excuse an error.
 */
export function knownClassOf(divergences: readonly KnownClass[], disagreement: Pick<Disagreement, 'operation' | 'reference' | 'adapter' | 'olderShapes' | 'failure' | 'variant' | 'recordNotObject'>): KnownClass | undefined {
  if (disagreement.failure) return undefined
  const matched: Record<typeof MATCHED[number], string> = {
    ...disagreement, adapter: adapterSide(disagreement), shapes: shapesOf(disagreement), records: recordsOf(disagreement),
  }
  return divergences.find(entry => MATCHED.every(key => entry[key] === undefined || compileGlob(entry[key]).test(matched[key])))
}
