import { describe, expect, it } from 'vitest'
import { formatSignificant } from '@/lib/format.js'

describe('formatSignificant', () => {
  it('shows at most 7 significant digits, plain between 1e-4 and 1e7', () => {
    expect(formatSignificant(0.002742666518315673)).toBe('0.002742667')
    expect(formatSignificant(0.984375)).toBe('0.984375')
    expect(formatSignificant(30)).toBe('30')
    expect(formatSignificant(0)).toBe('0')
    expect(formatSignificant(-1234.56789)).toBe('-1234.568')
  })

  it('reads the server numeric strings alike', () => {
    expect(formatSignificant('1.000000e-03')).toBe('0.001')
    expect(formatSignificant('7.386311e-04')).toBe('0.0007386311')
  })

  it('uses the exponent form for very small and very large values', () => {
    expect(formatSignificant(0.00001234567891)).toBe('1.234568e-5')
    expect(formatSignificant('1.000000e-05')).toBe('1e-5')
    expect(formatSignificant(123456789)).toBe('1.234568e+8')
  })

  it('leaves anything else as it is', () => {
    expect(formatSignificant('PCA')).toBe('PCA')
    expect(formatSignificant('5 × 5')).toBe('5 × 5')
    expect(formatSignificant('')).toBe('')
    expect(formatSignificant(true)).toBe(true)
    expect(formatSignificant(null)).toBe(null)
    expect(formatSignificant(Number.NaN)).toBeNaN()
  })
})
