// Reads spec/ into plain data: every requirement (ID, title, chapter, profiles, error codes) and the
// error-code tables of spec/errors.md. The spec is Markdown written for people; this module is the one
// place that knows its conventions (spec/README.md, "How a requirement is written").
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

export const PROFILES = ['reader', 'writer', 'relations', 'repair', 'compaction', 'fork', 'jsonl', 'storage'] as const
export type Profile = (typeof PROFILES)[number]

/** profiles.md: a writer provides these too, with which its vectors check what its appends did. */
export const WRITER_CHECKS: ReadonlySet<string> = new Set(['load', 'surface', 'messages'])

export interface Requirement {
  id: string
  prefix: string
  title: string
  chapter: string
  line: number
  profiles: string[]
  errors: string[]
  /** A dropped rule keeps its ID and heading, its title ending `*withdrawn*` (spec/README.md). */
  withdrawn: boolean
}

export interface ErrorCode {
  code: string
  kind: string
  meaning: string
  requirements: string[]
  table: 'rejection' | 'log'
  line: number
  /** A code no longer raised stays listed, its meaning starting `*retired*` (spec/errors.md). */
  retired: boolean
}

export interface SpecCatalog {
  requirements: Requirement[]
  codes: ErrorCode[]
  chapterPrefixes: Map<string, string[]>
}

/** The catalog and the text of spec/errors.md, whose requirements column must be what `--write-columns` writes. */
export interface SpecCatalogWithErrorsText extends SpecCatalog {
  errorsMarkdown: string
}

const REQUIREMENT_HEADING = /^### ([A-Z]+)-(\d+): (.+)$/
const WITHDRAWN = /\*withdrawn\*\s*$/
const RETIRED = /^\*retired\*/
const CHAPTER_FILE = /^\d\d-[a-z0-9-]+\.md$/
const BACKTICKED_CODE = /`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g
const BACKTICKED_ID = /`?([A-Z]+-\d+)`?/g

export function readSpecCatalog(specDir: string): SpecCatalogWithErrorsText {
  const chapters = readdirSync(specDir).filter((name) => CHAPTER_FILE.test(name)).sort()
  const requirements = chapters.flatMap((chapter) =>
    parseRequirements(chapter, readFileSync(join(specDir, chapter), 'utf8')),
  )
  const readme = readFileSync(join(specDir, 'README.md'), 'utf8')
  const errors = readFileSync(join(specDir, 'errors.md'), 'utf8')
  return { requirements, codes: parseErrorTables(errors), chapterPrefixes: parseChapterPrefixes(readme), errorsMarkdown: errors }
}

/** Splits a chapter into requirement blocks: a level-3 heading up to the next heading of level 1–3. */
export function parseRequirements(chapter: string, markdown: string): Requirement[] {
  const lines = markdown.split('\n')
  const found: Requirement[] = []
  let current: Requirement | undefined
  let inFence = false
  lines.forEach((text, index) => {
    if (text.startsWith('```')) inFence = !inFence
    if (inFence) return
    const heading = REQUIREMENT_HEADING.exec(text)
    if (heading) {
      current = {
        id: `${heading[1]}-${heading[2]}`,
        prefix: heading[1]!,
        title: heading[3]!.trim(),
        chapter,
        line: index + 1,
        profiles: [],
        errors: [],
        withdrawn: WITHDRAWN.test(heading[3]!),
      }
      found.push(current)
      return
    }
    if (/^#{1,3} /.test(text)) {
      current = undefined
      return
    }
    if (current) readMetadataLine(current, text)
  })
  return found
}

function readMetadataLine(requirement: Requirement, text: string): void {
  const profiles = /^- \*\*Profiles:\*\*(.*)$/.exec(text)
  if (profiles) {
    requirement.profiles = profiles[1]!.split(',').map((word) => word.replace(/`/g, '').trim()).filter(Boolean)
    return
  }
  const errors = /^- \*\*Errors:\*\*(.*)$/.exec(text)
  if (errors) requirement.errors = [...errors[1]!.matchAll(BACKTICKED_CODE)].map((match) => match[1]!)
}

/** Reads both tables of errors.md; a row is `| \`CODE\` | class or name | meaning | requirements |`. */
export function parseErrorTables(markdown: string): ErrorCode[] {
  const codes: ErrorCode[] = []
  let table: ErrorCode['table'] = 'rejection'
  markdown.split('\n').forEach((text, index) => {
    if (/^## Codes written into logs/.test(text)) table = 'log'
    const row = /^\| `([A-Z][A-Z0-9_]+)` \|([^|]*)\|([^|]*)\|([^|]*)\|\s*$/.exec(text)
    if (!row) return
    codes.push({
      code: row[1]!,
      kind: row[2]!.replace(/`/g, '').trim(),
      meaning: row[3]!.trim(),
      requirements: [...row[4]!.matchAll(BACKTICKED_ID)].map((match) => match[1]!),
      table,
      line: index + 1,
      retired: RETIRED.test(row[3]!.trim()),
    })
  })
  return codes
}

/**
 * The rows of a spec table whose first cell is a backticked name (`| \`name\` | … | \`a\`, \`b\` |`):
 * that name, and the backticked names of the third cell (a profile's operations, an operation's
 * inputs).
 */
export function parseNameTable(markdown: string): Map<string, Set<string>> {
  const rows = markdown.split('\n').filter((line) => /^\| `[A-Za-z]+` \|/.test(line))
  return new Map(rows.map((line) => {
    const cells = line.split('|').map((cell) => cell.trim())
    return [cells[1]!.replace(/`/g, ''), new Set([...cells[3]!.matchAll(/`([A-Za-z][A-Za-z0-9]*)`/g)].map((match) => match[1]!))]
  }))
}

/** Reads the chapter table of spec/README.md: which prefixes each chapter file may use. */
export function parseChapterPrefixes(readme: string): Map<string, string[]> {
  const prefixes = new Map<string, string[]>()
  for (const match of readme.matchAll(/^\| \[(\d\d-[a-z0-9-]+\.md)\]\([^)]*\) \|[^|]*\|([^|]*)\|/gm)) {
    prefixes.set(match[1]!, [...match[2]!.matchAll(/`([A-Z]+)`/g)].map((prefix) => prefix[1]!))
  }
  return prefixes
}

/** Every problem that makes the catalog inconsistent, as readable sentences. Empty means consistent. */
export function catalogProblems(catalog: SpecCatalogWithErrorsText): string[] {
  return [
    ...duplicateProblems(catalog),
    ...requirementProblems(catalog),
    ...codeProblems(catalog),
  ]
}

function duplicateProblems({ requirements, codes }: SpecCatalog): string[] {
  const problems: string[] = []
  const seenIds = new Map<string, Requirement>()
  for (const requirement of requirements) {
    const earlier = seenIds.get(requirement.id)
    if (earlier) {
      problems.push(`${requirement.chapter}:${requirement.line}: duplicate requirement ${requirement.id} (first at ${earlier.chapter}:${earlier.line})`)
    }
    seenIds.set(requirement.id, requirement)
  }
  const seenCodes = new Set<string>()
  for (const code of codes) {
    if (seenCodes.has(code.code)) problems.push(`errors.md:${code.line}: duplicate code ${code.code}`)
    seenCodes.add(code.code)
  }
  return problems
}

function requirementProblems({ requirements, codes, chapterPrefixes }: SpecCatalog): string[] {
  const rejectionCodes = new Set(codes.filter((code) => code.table === 'rejection').map((code) => code.code))
  const problems: string[] = []
  for (const requirement of requirements) {
    const where = `${requirement.chapter}:${requirement.line} ${requirement.id}`
    const allowed = chapterPrefixes.get(requirement.chapter)
    if (!allowed) problems.push(`${where}: chapter is not listed in spec/README.md`)
    else if (!allowed.includes(requirement.prefix)) problems.push(`${where}: prefix ${requirement.prefix} does not belong to this chapter`)
    if (requirement.withdrawn) {
      // A withdrawn rule is a tombstone: it keeps its ID and says why, and binds no one to anything.
      if (requirement.profiles.length > 0 || requirement.errors.length > 0) problems.push(`${where}: a withdrawn rule has no **Profiles:** or **Errors:** line`)
      continue
    }
    if (requirement.profiles.length === 0) problems.push(`${where}: no **Profiles:** line`)
    for (const profile of requirement.profiles) {
      if (!(PROFILES as readonly string[]).includes(profile)) problems.push(`${where}: unknown profile "${profile}"`)
    }
    for (const code of requirement.errors) {
      if (!rejectionCodes.has(code)) problems.push(`${where}: error code ${code} is missing from spec/errors.md`)
    }
  }
  return problems
}

/** For each rejection code, the IDs of the requirements whose **Errors:** line names it, in spec order. */
export function citingRequirements(requirements: readonly Requirement[]): Map<string, string[]> {
  const citing = new Map<string, string[]>()
  for (const requirement of requirements) {
    for (const code of requirement.errors) {
      const ids = citing.get(code) ?? []
      if (!ids.includes(requirement.id)) ids.push(requirement.id)
      citing.set(code, ids)
    }
  }
  return citing
}

/** errors.md with the requirements column of every rejection row rewritten from the chapters. */
export function withRequirementColumns(errorsMarkdown: string, requirements: readonly Requirement[]): string {
  const citing = citingRequirements(requirements)
  return errorsMarkdown.split('\n').map((text) => {
    const row = /^(\| `([A-Z][A-Z0-9_]+)` \|[^|]*\|[^|]*\|)[^|]*\|\s*$/.exec(text)
    const ids = row ? citing.get(row[2]!) : undefined
    return row && ids ? `${row[1]} ${ids.join(', ')} |` : text
  }).join('\n')
}

function codeProblems({ requirements, codes, errorsMarkdown }: SpecCatalogWithErrorsText): string[] {
  const citing = citingRequirements(requirements)
  const known = new Set(requirements.map((requirement) => requirement.id))
  const problems = codes.flatMap((code) => code.requirements
    .filter((id) => !known.has(id))
    .map((id) => `errors.md:${code.line}: ${code.code} lists ${id}, which no chapter defines`))
  for (const code of codes.filter((entry) => entry.table === 'rejection')) {
    const actual = citing.get(code.code) ?? []
    if (code.retired) {
      if (actual.length > 0) problems.push(`errors.md:${code.line}: ${code.code} is retired but still named by ${actual.join(', ')}`)
      if (code.requirements.length > 0) problems.push(`errors.md:${code.line}: ${code.code} is retired, so its requirements column is empty`)
      continue
    }
    if (actual.length === 0) problems.push(`errors.md:${code.line}: ${code.code} is used by no requirement (mark a code no longer raised *retired*)`)
    else if (actual.join(',') !== code.requirements.join(',')) {
      problems.push(`errors.md:${code.line}: ${code.code} lists [${code.requirements.join(', ')}] but is used by [${actual.join(', ')}]`)
    }
  }
  // Byte for byte, as the generator writes it: its spacing too, which the rows above do not compare.
  if (withRequirementColumns(errorsMarkdown, requirements) !== errorsMarkdown) {
    problems.push('spec/errors.md: the requirements column is stale: run `npm run spec:ids -- --write-columns`')
  }
  return problems
}
