import { describe, expect, it } from 'vitest'
import { readdirSync, existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createI18n } from 'vue-i18n'
import { routes } from '@/router/index.js'
import { messages as coreMessages } from '@/locales/index.js'
import { messages as pageMessages } from '@/locales/pages.js'
import { messageCompiler } from '@/locales/messageCompiler.js'
import { kindText } from '@/components/pertag/texts.js'

// What adding a per-tag kind relies on (docs/ADDING_A_KIND.md): its `views/<kind>/routes.js` is
// routed without a registration, and its texts can live in a section of the shared per-tag
// messages (`pertag.<plugin>`) instead of a locale file of its own.
const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src')

describe('adding a per-tag kind', () => {
  it('routes every views/<page>/routes.js', async () => {
    const folders = readdirSync(join(SRC, 'views')).filter((name) => existsSync(join(SRC, 'views', name, 'routes.js')))
    expect(folders).toContain('image')
    for (const folder of folders) {
      const { default: records } = await import(`../../src/views/${folder}/routes.js`)
      expect(records.length, folder).toBeGreaterThan(0)
      for (const record of records) expect(routes, `${folder}: ${record.path}`).toContain(record)
    }
  })

  it('loads the shared per-tag messages in every language', () => {
    for (const locale of Object.keys(coreMessages)) {
      expect(pageMessages[locale].pertag?.step, locale).toMatch(/\{step\}/)
    }
  })

  it("finds a kind's texts in its namespace, its pertag section, then the shared ones", () => {
    const en = { ...coreMessages['en-US'], ...pageMessages['en-US'] }
    const pertag = { ...en.pertag, throwaway: { title: 'Throwaway', noData: 'No throwaway data' } }
    const i18n = createI18n({
      legacy: false,
      locale: 'en-US',
      messages: { 'en-US': { ...en, pertag } },
      messageCompiler,
    })
    const { t, te } = i18n.global
    const text = (plugin, key, params, fallback) => kindText(t, te, plugin, key, params, fallback)

    expect(text('image', 'title')).toBe(en.image.title)
    expect(text('image', 'step', { step: 3 })).toBe(t('image.step', { step: 3 }))
    expect(text('throwaway', 'title')).toBe('Throwaway')
    expect(text('throwaway', 'noData')).toBe('No throwaway data')
    expect(text('throwaway', 'step', { step: 3 })).toBe('Step: 3')
    expect(text('throwaway', 'noJobId', {}, 'dashboard.noJobId')).toBe(en.dashboard.noJobId)
    expect(text('histogram', 'noJobId', {}, 'dashboard.noJobId')).toBe(en.dashboard.noJobId)
    expect(text('image', 'noJobId', {}, 'dashboard.noJobId')).toBe(en.image.noJobId)
  })
})
