// Which cases a run, a list or a matrix takes: by chapter, requirement, profile, operation and case-id glob.
// Values of one filter are alternatives; different filters must all match. No filter: every case.
import { PROFILES } from './spec-catalog.ts'
import { OPERATIONS, type VectorCase } from './vector-cases.ts'
import { printable } from './wording.ts'

export interface CaseFilters {
  /** A chapter name (`05-surface`) or its number (`05`, `5`). */
  chapters: string[]
  /** A requirement ID (`SURF-5`) or a whole prefix (`SURF`). */
  requirements: string[]
  profiles: string[]
  /** An operation (`surface`): the cases with a step of it. */
  operations: string[]
  /** Globs over case ids: `*` is any run of characters, `?` one character. */
  cases: string[]
}

export const FILTER_OPTIONS = {
  '--chapter': 'chapters',
  '--requirement': 'requirements',
  '--profile': 'profiles',
  '--operation': 'operations',
  '--case': 'cases',
} as const satisfies Record<string, keyof CaseFilters>

export function noFilters(): CaseFilters {
  return { chapters: [], requirements: [], profiles: [], operations: [], cases: [] }
}

/** Adds the comma-separated values of one filter option; returns what is wrong with them, if anything. */
export function addFilterValues(filters: CaseFilters, key: keyof CaseFilters, text: string): string | undefined {
  const values = text.split(',').map((value) => value.trim()).filter((value) => value !== '')
  if (values.length === 0) return `an empty ${key} filter`
  if (key === 'profiles') {
    const unknown = values.filter((value) => !(PROFILES as readonly string[]).includes(value))
    if (unknown.length > 0) return `unknown profile ${unknown.join(', ')} (profiles: ${PROFILES.join(', ')})`
  }
  if (key === 'operations') {
    const unknown = values.filter((value) => !(OPERATIONS as readonly string[]).includes(value))
    if (unknown.length > 0) return `unknown operation ${unknown.join(', ')} (operations: ${OPERATIONS.join(', ')})`
  }
  if (key === 'requirements') {
    const malformed = values.filter((value) => !/^[A-Za-z]+(-\d+)?$/.test(value))
    if (malformed.length > 0) return `not a requirement ID or prefix: ${malformed.join(', ')}`
  }
  filters[key].push(...(key === 'requirements' ? values.map((value) => value.toUpperCase()) : values))
  return undefined
}

/**
 * Filters given as lists (the vitest entry's `filters`), checked and normalized value by value as
 * the command line's options are; returns what is wrong with them, if anything.
 */
export function filtersFromLists(lists: Record<string, unknown>): CaseFilters | string {
  const filters = noFilters()
  const keys = Object.keys(filters)
  for (const [key, values] of Object.entries(lists)) {
    if (!keys.includes(key)) return `unknown filter ${key}; the filters are ${keys.join(', ')}`
    if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) return `the ${key} filter must be an array of strings`
    for (const value of values) {
      const problem = addFilterValues(filters, key as keyof CaseFilters, value)
      if (problem !== undefined) return problem
    }
  }
  return filters
}

/** A compiled glob: `test(text)` says whether the glob matches all of `text`. */
export interface Glob {
  test(text: string): boolean
}

/**
 * A glob read literally except `*` (any run of characters, none included) and `?` (one character, a
 * code point). It matches by walking both strings and going back only to the last `*`, which takes time
 * proportional to their lengths' product at worst: a regular expression built from it backtracks
 * exponentially on a pattern of many `*`s (`*a*a*a*…*b`) against a long name that misses.
 */
export function compileGlob(glob: string): Glob {
  const pattern = [...glob]
  return { test: text => globMatches(pattern, [...text]) }
}

function globMatches(pattern: readonly string[], text: readonly string[]): boolean {
  let at = 0
  let next = 0
  // Where the last `*` was, and the place in the text it has reached so far.
  let star = -1
  let starAt = 0
  while (at < text.length) {
    if (next < pattern.length && (pattern[next] === '?' || (pattern[next] !== '*' && pattern[next] === text[at]))) {
      next += 1
      at += 1
    } else if (next < pattern.length && pattern[next] === '*') {
      star = next
      starAt = at
      next += 1
    } else if (star !== -1) {
      // The last `*` takes one more character, and the rest of the pattern tries again after it.
      starAt += 1
      at = starAt
      next = star + 1
    } else return false
  }
  while (next < pattern.length && pattern[next] === '*') next += 1
  return next === pattern.length
}

function chapterMatches(chapter: string, wanted: string): boolean {
  if (chapter === wanted) return true
  const number = /^\d+$/.test(wanted) ? wanted.padStart(2, '0') : undefined
  return number !== undefined && chapter.startsWith(`${number}-`)
}

function requirementMatches(id: string, wanted: string): boolean {
  return wanted.includes('-') ? id === wanted : id.startsWith(`${wanted}-`)
}

/** A predicate that says whether a case passes every filter. */
export function caseMatcher(filters: CaseFilters): (vector: VectorCase) => boolean {
  const globs = filters.cases.map(compileGlob)
  return (vector) =>
    (filters.chapters.length === 0 || filters.chapters.some((wanted) => chapterMatches(vector.chapter, wanted))) &&
    (filters.requirements.length === 0 || vector.requirements.some((id) => filters.requirements.some((wanted) => requirementMatches(id, wanted)))) &&
    (filters.profiles.length === 0 || filters.profiles.includes(vector.profile)) &&
    (filters.operations.length === 0 || vector.steps.some((step) => filters.operations.includes(step.operation))) &&
    (globs.length === 0 || globs.some((glob) => glob.test(vector.id)))
}

/**
 * What is wrong with a chapter, requirement or case-id value that matches none of `cases` on its own,
 * if any: a typo in a list of values would otherwise only narrow the run, quietly.
 */
export function unmatchedFilterValues(cases: readonly VectorCase[], filters: CaseFilters): string | undefined {
  const chapters = [...new Set(cases.map((vector) => vector.chapter))].sort()
  const chapter = filters.chapters.find((wanted) => !chapters.some((name) => chapterMatches(name, wanted)))
  if (chapter !== undefined) return `--chapter ${chapter} matches no case (chapters: ${chapters.join(', ')}, or their numbers)`
  const requirement = filters.requirements.find((wanted) => !cases.some((vector) => vector.requirements.some((id) => requirementMatches(id, wanted))))
  if (requirement !== undefined) return `--requirement ${requirement} matches no case: no case exercises a requirement of that ID or prefix (each rule of spec/ is a heading that starts with its ID; \`npm run spec:ids\` lists them in the suite's repository)`
  const glob = filters.cases.find((wanted) => {
    const pattern = compileGlob(wanted)
    return !cases.some((vector) => pattern.test(vector.id))
  })
  if (glob !== undefined) return `--case ${glob} matches no case id`
  return undefined
}

/**
 * The cases that pass every filter given (a filter left out, or undefined, does not narrow them),
 * the filters checked and normalized as filtersFromLists does; throws naming an unknown filter or value.
 */
export function selectCases(cases: readonly VectorCase[], filters: Partial<CaseFilters>): VectorCase[] {
  const given = filtersFromLists(Object.fromEntries(Object.entries(filters).filter(([, values]) => values !== undefined)))
  if (typeof given === 'string') throw new Error(`selectCases: ${given}`)
  return cases.filter(caseMatcher(given))
}

/** The filters as one line for people (`--chapter 05 --case 'surf-*'`), empty when there are none. */
export function describeFilters(filters: CaseFilters): string {
  return Object.entries(FILTER_OPTIONS)
    .filter(([, key]) => filters[key].length > 0)
    .map(([option, key]) => `${option} ${filters[key].join(',')}`)
    .join(' ')
}

/** The operations of a case's steps, each once, in the order they first run. */
function caseOperations(vector: VectorCase): string[] {
  return [...new Set(vector.steps.map((step) => step.operation))]
}

/**
 * The lines of `dsh-conformance list`: id, profile, requirements, operations and title of each selected
 * case, the title printable: it is any string (a --vectors file is anyone's), and a tab in it would add a
 * field, a line feed a case, an escape sequence reach the terminal.
 */
export function listLines(cases: readonly VectorCase[], filters: CaseFilters): string[] {
  return selectCases(cases, filters).map((vector) => [vector.id, vector.profile, vector.requirements.join(','), caseOperations(vector).join(','), printable(vector.title)].join('\t'))
}
