import { describe, expect, it } from 'vitest'
import { addressWithoutToken, dropTokenFromAddress } from '@/lib/addressToken.js'

describe('the access token leaves the address bar', () => {
  it('drops ?token= and keeps the path, the other parameters and the hash route', () => {
    expect(addressWithoutToken('http://h:8080/?token=Ab-1#/summary-manage')).toBe('/#/summary-manage')
    expect(addressWithoutToken('http://h/mi/?a=1&token=x&b=%20#/scalar?train_id=./run')).toBe(
      '/mi/?a=1&b=%20#/scalar?train_id=./run',
    )
    expect(addressWithoutToken('http://h/?token')).toBe('/')
  })

  it('leaves an address without a token alone', () => {
    expect(addressWithoutToken('http://h/#/summary-manage')).toBeNull()
    expect(addressWithoutToken('http://h/?mytoken=1#/x?token=2')).toBeNull()
  })

  it('replaces the history entry, keeping its state', () => {
    const calls = []
    const history = { state: { back: null }, replaceState: (...args) => calls.push(args) }
    dropTokenFromAddress({ href: 'http://h/?token=t0k#/summary-manage' }, history)
    expect(calls).toEqual([[{ back: null }, '', '/#/summary-manage']])
    dropTokenFromAddress({ href: 'http://h/#/summary-manage' }, history)
    expect(calls).toHaveLength(1)
  })
})
