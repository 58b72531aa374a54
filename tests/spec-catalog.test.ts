import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  catalogProblems,
  parseChapterPrefixes,
  parseErrorTables,
  parseRequirements,
  readSpecCatalog,
  withRequirementColumns,
  type SpecCatalogWithErrorsText,
} from '../conformance/spec-catalog.ts'
import { ERROR_CODES } from '../reference/result.ts'
import { computeCoverage } from '../conformance/coverage.ts'

const specDir = fileURLToPath(new URL('../spec/', import.meta.url))

describe('the spec catalog', () => {
  const catalog = readSpecCatalog(specDir)

  it('is consistent: unique IDs and codes, every used code in errors.md, requirement columns current', () => {
    expect(catalogProblems(catalog)).toEqual([])
  })

  it('lists exactly the rejection codes the reference can give (ERROR_CODES), and repair\'s two log codes apart', () => {
    const rejections = catalog.codes.filter((code) => code.table === 'rejection').map((code) => code.code)
    expect([...rejections].sort()).toEqual([...ERROR_CODES].sort())
    expect(catalog.codes.filter((code) => code.table === 'log').map((code) => code.code)).toEqual(['TOOL_NOT_STARTED', 'TOOL_OUTCOME_UNKNOWN'])
  })

  it('states at least 120 requirements and 40 rejection codes', () => {
    expect(catalog.requirements.length).toBeGreaterThanOrEqual(120)
    expect(catalog.codes.filter((code) => code.table === 'rejection').length).toBeGreaterThanOrEqual(40)
  })

  it('has a chapter for every row of the chapter table', () => {
    const chaptersWithRules = new Set(catalog.requirements.map((requirement) => requirement.chapter))
    expect([...catalog.chapterPrefixes.keys()].filter((chapter) => !chaptersWithRules.has(chapter))).toEqual([])
  })
})

const chapter = `# 99 Test
### SURF-1: First rule
Text MUST hold.
- **Profiles:** reader, writer
- **Errors:** \`SURFACE_OP_MISSING\`, \`SURFACE_OP_INVALID\`

\`\`\`markdown
### SURF-9: inside a fence is not a rule
\`\`\`
## Informative
- **Errors:** \`NOT_A_RULE_CODE\`
### SURF-1: Duplicate
- **Profiles:** readr
- **Errors:** \`NO_SUCH_CODE\`
`

const errors = `| code | class | meaning | requirements |
|---|---|---|---|
| \`SURFACE_OP_MISSING\` | invalid | missing | SURF-1 |
| \`SURFACE_OP_INVALID\` | invalid | invalid | |
| \`SURFACE_OP_MISSING\` | invalid | again | SURF-1 |
| \`UNUSED_CODE\` | invalid | unused | |
`

function syntheticCatalog(errorsMarkdown = errors): SpecCatalogWithErrorsText {
  return {
    requirements: parseRequirements('99-test.md', chapter),
    codes: parseErrorTables(errorsMarkdown),
    chapterPrefixes: parseChapterPrefixes('| [99-test.md](99-test.md) | test | `SURF` |'),
    errorsMarkdown,
  }
}

const STALE_COLUMN = 'spec/errors.md: the requirements column is stale: run `npm run spec:ids -- --write-columns`'

describe('catalog checks', () => {
  it('parses headings, profiles and codes, ignoring fenced text and informative sections', () => {
    const [first, second] = parseRequirements('99-test.md', chapter)
    expect(first).toMatchObject({ id: 'SURF-1', title: 'First rule', profiles: ['reader', 'writer'], errors: ['SURFACE_OP_MISSING', 'SURFACE_OP_INVALID'] })
    expect(second).toMatchObject({ id: 'SURF-1', profiles: ['readr'], errors: ['NO_SUCH_CODE'] })
  })

  it('reports duplicates, unknown profiles, missing codes, unused codes and stale requirement columns', () => {
    const problems = catalogProblems(syntheticCatalog()).join('\n')
    expect(problems).toContain('duplicate requirement SURF-1')
    expect(problems).toContain('duplicate code SURFACE_OP_MISSING')
    expect(problems).toContain('unknown profile "readr"')
    expect(problems).toContain('NO_SUCH_CODE is missing from spec/errors.md')
    expect(problems).toContain('UNUSED_CODE is used by no requirement')
    expect(problems).toContain('SURFACE_OP_INVALID lists [] but is used by [SURF-1]')
    expect(problems).toContain(STALE_COLUMN)
  })

  it('holds the requirements column to what --write-columns writes, byte for byte', () => {
    const twoRules = `${chapter}### SURF-2: Second rule\n- **Profiles:** reader\n- **Errors:** \`SURFACE_OP_MISSING\`\n`
    const catalog = (table: string): SpecCatalogWithErrorsText => ({
      ...syntheticCatalog(table),
      requirements: parseRequirements('99-test.md', twoRules),
    })
    const written = withRequirementColumns(errors, catalog(errors).requirements)
    expect(catalogProblems(catalog(written))).not.toContain(STALE_COLUMN)
    // The same IDs in another order, or spaced otherwise: the generator would rewrite both.
    const reordered = catalogProblems(catalog(written.replace('| SURF-1, SURF-2 |', '| SURF-2, SURF-1 |')))
    expect(reordered).toContain(STALE_COLUMN)
    expect(reordered).toContain('errors.md:3: SURFACE_OP_MISSING lists [SURF-2, SURF-1] but is used by [SURF-1, SURF-2]')
    expect(catalogProblems(catalog(written.replace('| SURF-1, SURF-2 |', '| SURF-1,  SURF-2 |')))).toContain(STALE_COLUMN)
  })

  it('takes a withdrawn rule and a retired code as tombstones: listed, binding nothing, exercised by no vector', () => {
    const tombstones = `### SURF-1: First rule
- **Profiles:** reader
- **Errors:** \`SURFACE_OP_MISSING\`
### SURF-2: Replaces were capped *withdrawn*
Dropped: the cap broke logs that upstream writes.
`
    const table = `| \`SURFACE_OP_MISSING\` | invalid | missing | SURF-1 |
| \`SURFACE_REPLACE_TOO_WIDE\` | invalid | *retired*: a replace wider than the cap | |
`
    const catalog: SpecCatalogWithErrorsText = { ...syntheticCatalog(table), requirements: parseRequirements('99-test.md', tombstones) }
    expect(catalog.requirements.map((requirement) => [requirement.id, requirement.withdrawn])).toEqual([['SURF-1', false], ['SURF-2', true]])
    expect(catalog.codes.map((code) => [code.code, code.retired])).toEqual([['SURFACE_OP_MISSING', false], ['SURFACE_REPLACE_TOO_WIDE', true]])
    expect(catalogProblems(catalog)).toEqual([])
    const coverage = computeCoverage(catalog, [])
    expect([...coverage.uncoveredRequirements, ...coverage.uncoveredCodes]).toEqual(['SURF-1', 'SURFACE_OP_MISSING'])
    // A tombstone that still binds something is a mistake.
    const stillBinding = `${tombstones}- **Profiles:** reader\n- **Errors:** \`SURFACE_REPLACE_TOO_WIDE\`\n`
    const problems = catalogProblems({ ...catalog, requirements: parseRequirements('99-test.md', stillBinding) }).join('\n')
    expect(problems).toContain('SURF-2: a withdrawn rule has no **Profiles:** or **Errors:** line')
    expect(problems).toContain('SURFACE_REPLACE_TOO_WIDE is retired but still named by SURF-2')
    const listed = catalogProblems({ ...catalog, ...syntheticCatalog(table.replace('| *retired*: a replace wider than the cap | |', '| *retired*: a replace wider than the cap | SURF-1 |')), requirements: catalog.requirements }).join('\n')
    expect(listed).toContain('SURFACE_REPLACE_TOO_WIDE is retired, so its requirements column is empty')
  })

  it('reports a prefix used in the wrong chapter', () => {
    const catalog = syntheticCatalog()
    catalog.chapterPrefixes.set('99-test.md', ['PROV'])
    expect(catalogProblems(catalog).join('\n')).toContain('prefix SURF does not belong to this chapter')
  })
})
