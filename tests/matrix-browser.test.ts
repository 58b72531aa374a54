// docs/compat.html in a real browser (headless Chromium, as tests/audit/browser.test.ts starts it): the
// column names of a long chapter stay in view while its rows scroll, and on a phone's width the page
// does not scroll sideways, its tables scrolling in their own boxes. Skipped, saying why, without
// /usr/bin/chromium.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, chromiumPresent, launchChromium } from './audit/chromium.ts'
import { projectRoot } from './audit/logs.ts'

const page = pathToFileURL(path.join(projectRoot, 'docs', 'compat.html')).href
const skipReason = chromiumPresent ? '' : ` (skipped: ${CHROMIUM} is missing; install Debian's chromium package, as .ci/run does)`

describe.skipIf(!chromiumPresent)(`docs/compat.html in headless Chromium${skipReason}`, () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })

  it('keeps a long chapter\'s column names in view while its rows scroll', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 500 } })
    const tab = await context.newPage()
    await tab.goto(page)
    const tallest = await tab.evaluate(`[...document.querySelectorAll('table[aria-labelledby]')].sort((a, b) => b.offsetHeight - a.offsetHeight)[0].getAttribute('aria-labelledby')`)
    const table = tab.locator(`table[aria-labelledby="${tallest}"]`)
    const box = (await table.boundingBox())!
    expect(box.height).toBeGreaterThan(800)
    await tab.mouse.wheel(0, box.y + box.height / 2)
    await tab.waitForTimeout(200)
    const header = (await table.locator('thead th').first().boundingBox())!
    expect(Math.abs(header.y)).toBeLessThan(2)
    await context.close()
  }, 60_000)

  it('fits a phone\'s width, each table scrolling in its own box', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, isMobile: true })
    const tab = await context.newPage()
    await tab.goto(page)
    expect(await tab.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375)
    await context.close()
  }, 60_000)
})
