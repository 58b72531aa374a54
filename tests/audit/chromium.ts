// Headless Chromium as the browser test and the audit bench start it: Debian's chromium package,
// driven by playwright-core, with the flags that keep it from reaching the network or a GPU.
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'
export const chromiumPresent = existsSync(CHROMIUM)

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
}
