// Every profile a requirement names is shown by a case of that profile naming the requirement, unless
// spec/profiles.md lists the rule as one that profile claims but no vector of it can check. The list is
// read from spec/profiles.md itself, so the document and this test cannot drift apart.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readSpecCatalog } from '../conformance/spec-catalog.ts'
import { loadVectorCases } from '../conformance/vector-cases.ts'

const specDir = fileURLToPath(new URL('../spec/', import.meta.url))
const SECTION = '## What each profile does not cover'
const EXCEPTION = /^\s+- `([A-Z]+-\d+)` \(([^)]*)\):/

/** The nested entries `- \`ID\` (\`profile\`, …): why` of the "does not cover" section, by ID. */
function profileExceptions(markdown: string): Map<string, Set<string>> {
  const start = markdown.indexOf(SECTION)
  if (start < 0) return new Map()
  const rest = markdown.slice(start + SECTION.length)
  const end = rest.search(/^#{1,2} /m)
  const section = end < 0 ? rest : rest.slice(0, end)
  const exceptions = new Map<string, Set<string>>()
  for (const line of section.split('\n')) {
    const entry = EXCEPTION.exec(line)
    if (!entry) continue
    const profiles = entry[2]!.split(',').map((word) => word.replace(/`/g, '').trim()).filter(Boolean)
    const known = exceptions.get(entry[1]!) ?? new Set<string>()
    for (const profile of profiles) known.add(profile)
    exceptions.set(entry[1]!, known)
  }
  return exceptions
}

/** The spec catalog, the profiles of the cases naming each requirement, and spec/profiles.md's exceptions. */
function pairs() {
  const catalog = readSpecCatalog(specDir)
  const named = new Map<string, Set<string>>()
  for (const vector of loadVectorCases()) {
    for (const id of vector.requirements) {
      const profiles = named.get(id) ?? new Set<string>()
      profiles.add(vector.profile)
      named.set(id, profiles)
    }
  }
  const exceptions = profileExceptions(readFileSync(`${specDir}profiles.md`, 'utf8'))
  return { catalog, named, exceptions }
}

describe('profiles of the requirements and the profiles of their cases', () => {
  it('reads the exception entries of spec/profiles.md', () => {
    const markdown = [
      '## What each profile does not cover', '', '- `reader` does not run `X-1` (`writer`): prose.',
      '- Rules no vector of a profile can show:', '  - `A-1` (`writer`): why.', '  - `B-2` (`fork`, `jsonl`): why.',
      '', '## Next', '  - `C-3` (`reader`): not in the section.',
    ].join('\n')
    expect([...profileExceptions(markdown)].map(([id, set]) => [id, [...set]])).toEqual([
      ['A-1', ['writer']], ['B-2', ['fork', 'jsonl']],
    ])
  })

  it('has a case of every profile a requirement names, or lists the pair in spec/profiles.md', () => {
    const { catalog, named, exceptions } = pairs()
    const missing = catalog.requirements
      .filter((requirement) => !requirement.withdrawn)
      .flatMap((requirement) => requirement.profiles
        .filter((profile) => !named.get(requirement.id)?.has(profile) && !exceptions.get(requirement.id)?.has(profile))
        .map((profile) => `${requirement.id} (${profile})`))
    expect(missing).toEqual([])
  })

  it('lists as an exception only a profile the rule names and no case of that profile names it for', () => {
    const { catalog, named, exceptions } = pairs()
    const byId = new Map(catalog.requirements.map((requirement) => [requirement.id, requirement]))
    expect(exceptions.size).toBeGreaterThan(0)
    const stale = [...exceptions].flatMap(([id, profiles]) => [...profiles]
      .filter((profile) => !byId.get(id)?.profiles.includes(profile) || named.get(id)?.has(profile))
      .map((profile) => `${id} (${profile})`))
    expect(stale).toEqual([])
  })
})
