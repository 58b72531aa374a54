// The compatibility matrix: per requirement and implementation, passed/cases with skips apart;
// rendered as Markdown and as one self-contained HTML page.
import { describe, expect, it } from 'vitest'
import { matrixHtml } from '../conformance/matrix-html.ts'
import { cellMark, cellText, computeMatrix, matrixMarkdown, requirementAnchor } from '../conformance/matrix.ts'
import type { AdapterRun } from '../conformance/results.ts'
import type { Requirement } from '../conformance/spec-catalog.ts'
import { CASES, META, plainRun, SUITE, unstartedRun } from './support/fake-runs.ts'
import { HOSTILE, RAW_CONTROL } from './support/hostile-text.ts'

function requirement(id: string, chapter: string, title: string): Requirement {
  return { id, prefix: id.split('-')[0]!, title, chapter, line: 1, profiles: [], errors: [], withdrawn: false }
}

const REQUIREMENTS = [
  requirement('PROC-7', '00-processing.md', 'Relations report every vetoed event'),
  requirement('PROC-8', '00-processing.md', 'No case names this one'),
  requirement('SURF-1', '05-surface.md', 'The surface is a list of seqs'),
  requirement('SURF-5', '05-surface.md', 'Replace endpoints <ordered> by position'),
  requirement('COMP-2', '13-compaction.md', 'One bracket at a time'),
  requirement('JSONL-6', '19-jsonl.md', '`header` line checks run first'),
]

const allPass: AdapterRun = {
  label: 'all-pass',
  adapter: { ...META, name: 'all-pass', profiles: ['reader', 'relations', 'jsonl', 'compaction'] },
  outcomes: CASES.map((vector) => ({ id: vector.id, status: 'pass' })),
  durationMs: 1,
}

const matrix = computeMatrix(REQUIREMENTS, CASES, [plainRun(), allPass, unstartedRun()], SUITE)

describe('computing the matrix', () => {
  it('has one row per exercised requirement, grouped by chapter in spec order', () => {
    expect(matrix.chapters.map(({ chapter, rows }) => [chapter, rows.map((row) => row.requirement.id)])).toEqual([
      ['00-processing', ['PROC-7']],
      ['05-surface', ['SURF-1', 'SURF-5']],
      ['13-compaction', ['COMP-2']],
      ['19-jsonl', ['JSONL-6']],
    ])
    expect(matrix.columns.map((column) => column.name)).toEqual(['fake-impl', 'all-pass', 'broken-cmd --flag'])
    expect(matrix.columns[2]?.startError).toContain('crash')
  })

  it('counts every case of a requirement in its cell, and keeps the failing ids', () => {
    const row = (id: string) => matrix.chapters.flatMap((chapter) => chapter.rows).find((candidate) => candidate.requirement.id === id)!
    expect(row('SURF-5').cells[0]).toEqual({ pass: 0, fail: 1, error: 1, skip: 0, failing: ['surf-b', 'surf-c'] })
    expect(row('COMP-2').cells[0]).toEqual({ pass: 0, fail: 1, error: 0, skip: 1, failing: ['comp-b'] })
    expect(row('SURF-1').cells[1]).toEqual({ pass: 2, fail: 0, error: 0, skip: 0, failing: [] })
    expect(row('SURF-1').cells[2]).toEqual({ pass: 0, fail: 0, error: 0, skip: 0, failing: [] })
  })
})

describe('cells', () => {
  it.each([
    [{ pass: 3, fail: 0, error: 0, skip: 0 }, 'pass', '3/3'],
    [{ pass: 2, fail: 0, error: 0, skip: 1 }, 'partial', '2/3, skipped 1'],
    [{ pass: 0, fail: 0, error: 0, skip: 4 }, 'skip', 'skipped 4'],
    [{ pass: 1, fail: 1, error: 2, skip: 1 }, 'fail', '1/5, skipped 1, 2 errors'],
    [{ pass: 0, fail: 0, error: 0, skip: 0 }, 'none', 'not run'],
  ])('%j is %s: %s', (counts, mark, text) => {
    expect(cellMark(counts)).toBe(mark)
    expect(cellText(counts)).toBe(text)
  })

  it('a skip is never shown as a pass', () => {
    expect(cellMark({ pass: 0, fail: 0, error: 0, skip: 1 })).not.toBe('pass')
    expect(cellMark({ pass: 1, fail: 0, error: 0, skip: 1 })).not.toBe('pass')
  })
})

describe('rendering', () => {
  it('Markdown: totals, legend, one table per chapter, links to the rules when asked', () => {
    const markdown = matrixMarkdown(matrix, { title: 'Matrix', preamble: ['Made by a test.'], specLink: '../spec/' })
    expect(markdown.startsWith('# Matrix\n\nMade by a test.\n\n')).toBe(true)
    expect(markdown).toContain(`content hash \`${SUITE.contentHash}\`, all 6 cases.`)
    expect(markdown).toContain('| fake-impl | 1.2.3 | javascript | 2 | 2 | 1 | 1 |')
    expect(markdown).toContain('| broken-cmd --flag | — | — | not started: crash:')
    expect(markdown).toContain('⏭️ every case was skipped')
    expect(markdown).toContain('## 05-surface\n\n| requirement | fake-impl | all-pass | broken-cmd --flag |\n|---|---|---|---|')
    expect(markdown).toContain('| [SURF-5](../spec/05-surface.md#surf-5-replace-endpoints-ordered-by-position) Replace endpoints &lt;ordered> by position | ❌ 0/2, 1 error | ✅ 2/2 | not run |')
    expect(markdown).toContain('| [COMP-2](../spec/13-compaction.md#comp-2-one-bracket-at-a-time) One bracket at a time | ❌ 0/2, skipped 1 | ✅ 2/2 | not run |')
    expect(matrixMarkdown(matrix, { title: 'Matrix' })).toContain('| SURF-1 The surface is a list of seqs |')
  })

  it('Markdown, whole: the selection, the totals, the legend, then per chapter a table of its rows', () => {
    const one: AdapterRun = { label: 'one-cmd', adapter: META, outcomes: [{ id: 'surf-a', status: 'pass' }, { id: 'comp-a', status: 'skip', reason: 'profile "compaction" not declared' }], durationMs: 1 }
    const selected = CASES.filter((vector) => vector.id === 'surf-a' || vector.id === 'comp-a')
    const small = computeMatrix(REQUIREMENTS, selected, [one], SUITE)
    expect(matrixMarkdown(small, { title: 'Small | matrix' }).split('\n')).toEqual([
      '# Small | matrix',
      '',
      `Suite ${SUITE.name} ${SUITE.version}, content hash \`${SUITE.contentHash}\`, 2 of 6 cases.`,
      '',
      '| implementation | version | language | passed | failed | errors | skipped |',
      '|---|---|---|---:|---:|---:|---:|',
      '| fake-impl | 1.2.3 | javascript | 1 | 0 | 0 | 1 |',
      '',
      'Each cell counts the cases that exercise the requirement: passed/cases, with skipped cases counted apart. A skip or an error is never a pass. '
        + '✅ every case passed; ☑️ none failed, some were skipped; ❌ a case failed or erred; '
        + '⏭️ every case was skipped (the implementation does not claim the profile or lacks an operation).',
      '',
      '## 05-surface',
      '',
      '| requirement | fake-impl |',
      '|---|---|',
      '| SURF-1 The surface is a list of seqs | ✅ 1/1 |',
      '',
      '## 13-compaction',
      '',
      '| requirement | fake-impl |',
      '|---|---|',
      '| COMP-2 One bracket at a time | ⏭️ skipped 1 |',
      '',
    ])
    const named = computeMatrix(REQUIREMENTS, selected, [{ ...one, adapter: { ...META, name: 'a|b', version: '<1>', language: 'c|d' } }], SUITE)
    expect(matrixMarkdown(named, { title: 'T' })).toContain('\n| a\\|b | \\<1\\> | c\\|d | 1 | 0 | 0 | 1 |\n')
    // A folder of one's own is named in the suite's line, and cannot start a line of its own.
    const ofFolder = computeMatrix(REQUIREMENTS, selected, [one], { ...SUITE, vectors: 'ev\n# Injected' })
    expect(matrixMarkdown(ofFolder, { title: 'T' })).toContain(`\nSuite ${SUITE.name} ${SUITE.version} (vectors under ev\\\\u000a\\# Injected), content hash`)
  })

  it('Markdown: an adapter\'s name, version, language and errors each stay in their cell, on one line, every control and markup escaped', () => {
    // Blank lines, a heading, an external image and a comment's start after the terminal escapes.
    const forged = `${HOSTILE}\n\n## ✅ every implementation passes\n\n![x](http://evil.example/p.png)\n\n<!--`
    // As Markdown renders it: the escapes printable gives (CR LF joined to a blank), no markup.
    const hostileShown = String.raw`evil\\u001b\]0;TITLE\\u0007\\u001b\[2J forged: ok\\u202e`
    const shown = String.raw`${hostileShown} \#\# ✅ every implementation passes \!\[x\](http://evil.example/p.png) \<\!--`
    const hostile: AdapterRun = { ...allPass, adapter: { ...META, name: forged, version: HOSTILE, language: HOSTILE }, stopError: forged }
    const markdown = matrixMarkdown(computeMatrix(REQUIREMENTS, CASES, [hostile, { ...unstartedRun(), startError: forged }], SUITE), { title: 'M' })
    expect(markdown).not.toMatch(RAW_CONTROL)
    expect(markdown).toContain(`\n| ${shown} | ${hostileShown} | ${hostileShown} | ${CASES.length} | 0 | 0 | 0 |\n| broken-cmd --flag | — | — | not started: ${shown} | | | |\n\n${shown} broke the protocol after its last reply: ${shown}\n`)
    expect(markdown).toContain(`\n| requirement | ${shown} | broken-cmd --flag |\n`)
    // No line of the adapter's making: every line is the title, a table row, the suite's line, the legend, a chapter's heading or the one saying how it broke the protocol.
    expect(markdown.split('\n').filter((line) => !/^(# M|\||Suite |Each cell |## \d\d-[a-z]+$|$)/.test(line))).toEqual([`${shown} broke the protocol after its last reply: ${shown}`])
  })

  it('HTML: one self-contained page, escaped, each cell\'s state as a symbol beside its colour, its failing cases a click away', () => {
    const html = matrixHtml(matrix, { title: 'Matrix <&>' })
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain('<title>Matrix &lt;&amp;&gt;</title>')
    expect(html).not.toMatch(/<script|<link|\bsrc=|href="https?:|\btitle="/)
    expect(html).toContain('<td class="fail"><details><summary>✗ 0/2, 1 error</summary><ul><li>surf-b</li><li>surf-c</li></ul></details></td>')
    expect(html).toContain('<td class="pass">✓ 2/2</td>')
    expect(html).toContain('<span class="fail">✗ a case failed or erred</span>')
    expect(html).toContain('Replace endpoints &lt;ordered&gt; by position')
    expect(html).toContain('<code>header</code> line checks run first')
    // A landmark, an index of the chapters, each table named by its chapter's heading and scrolling in its own box.
    expect(html).toMatch(/<body>\n<main>\n[\s\S]*<\/main>\n<\/body>/)
    for (const chapter of matrix.chapters.map((entry) => entry.chapter)) {
      expect(html).toContain(`<li><a href="#${chapter}">${chapter}</a></li>`)
      expect(html).toContain(`<h2 id="${chapter}">${chapter}</h2>\n<div class="scroll" tabindex="0" role="region" aria-label="${chapter}"><table aria-labelledby="${chapter}">`)
    }
  })

  it('HTML: lists at most 20 failing cases in a cell and counts the rest', () => {
    const many = { ...matrix, chapters: [{ ...matrix.chapters[0]!, rows: [{ ...matrix.chapters[0]!.rows[0]!, cells: [{ pass: 0, fail: 25, error: 0, skip: 0, failing: Array.from({ length: 25 }, (_, index) => `case-${index}`) }] }] }] }
    const html = matrixHtml(many, { title: 'M' })
    expect(html).toContain('<li>case-19</li><li>and 5 more</li></ul>')
    expect(html).not.toContain('case-20')
  })

  it('HTML: shows an adapter\'s control and format characters as escapes (a right-to-left override reorders what is seen)', () => {
    const named = computeMatrix(REQUIREMENTS, CASES, [{ ...allPass, adapter: { ...allPass.adapter!, name: 'evil\u202egnissap lla\u202c', version: '1\r2' } }], SUITE)
    const html = matrixHtml(named, { title: 'M' })
    expect(html).toContain('<th>evil\\u202egnissap lla\\u202c</th>')
    expect(html).toContain('<td>1\\u000d2</td>')
    expect(html).not.toMatch(/[\u202e\u202c\r]/)
  })

  it('names an adapter that broke the protocol after its last reply under the totals, its cells kept', () => {
    const stopped = computeMatrix(REQUIREMENTS, CASES, [{ ...allPass, stopError: 'a line when no reply was due: <junk>' }], SUITE)
    expect(stopped.columns[0]?.stopError).toBe('a line when no reply was due: <junk>')
    expect(matrixMarkdown(stopped, { title: 'M' })).toContain(`| all-pass | 1.2.3 | javascript | ${CASES.length} | 0 | 0 | 0 |\n\nall-pass broke the protocol after its last reply: a line when no reply was due: \\<junk\\>\n`)
    expect(matrixHtml(stopped, { title: 'M' })).toContain('</table></div>\n<p>all-pass broke the protocol after its last reply: a line when no reply was due: &lt;junk&gt;</p>')
    expect(matrixMarkdown(matrix, { title: 'M' })).not.toContain('broke the protocol')
  })

  it('links each rule by the anchor GitHub gives its heading', () => {
    expect(requirementAnchor({ id: 'META-7', title: '`cwd` is an absolute path of either path convention' })).toBe('meta-7-cwd-is-an-absolute-path-of-either-path-convention')
    expect(requirementAnchor({ id: 'PROC-2', title: 'Load runs in phases, and the first failing phase is reported' })).toBe('proc-2-load-runs-in-phases-and-the-first-failing-phase-is-reported')
  })
})
