"""Masked CRC-32C, the checksum of TFRecord-style framing (hardware accelerated).

``rows_crc32c`` gives the CRC of many equally long records at once. The C library takes one
buffer per call, which costs far more than the CRC of a 40-byte record; but for a fixed length
the CRC is affine over GF(2): ``crc(x) = crc(r) ^ sum_p T_p[x_p ^ r_p]``, where ``T_p[v]`` is
what a byte ``v`` at position ``p`` adds. So the library computes the CRC of the first row and,
bit by bit, the tables of the positions where rows differ; numpy adds the rest up.
"""

import functools

import google_crc32c
import numpy as np

_MASK_DELTA = 0xA282EAD8


def crc32c(data) -> int:
    """Plain CRC-32C (Castagnoli) of ``data`` (bytes-like)."""
    return google_crc32c.value(bytes(data) if isinstance(data, memoryview) else data)


def masked_crc32c(data) -> int:
    """CRC-32C rotated and offset as the record format stores it."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


_BYTE_VALUES = np.arange(256, dtype=np.uint8)
_GATHER_ROWS = 1024  # rows up to which ``rows_crc32c`` gathers every varying byte at once
_FEW_ROWS = 512  # rows up to which ``_varying_positions`` compares whole rows at once


@functools.lru_cache(maxsize=4096)  # 1 KiB each
def _position_table(length: int, position: int) -> np.ndarray:
    """What each byte value at ``position`` adds to the CRC of ``length`` bytes (uint32 x 256)."""
    zero = google_crc32c.value(bytes(length))
    table = np.zeros(256, dtype=np.uint32)
    probe = bytearray(length)
    for bit in range(8):
        probe[position] = 1 << bit
        table[(_BYTE_VALUES >> bit) & 1 == 1] ^= np.uint32(google_crc32c.value(bytes(probe)) ^ zero)
    return table


@functools.lru_cache(maxsize=32)  # at most 256 positions x 1 KiB each
def _stacked_tables(length: int, positions: tuple) -> np.ndarray:
    """The tables of ``positions`` one after the other (uint32 x 256 per position)."""
    return np.concatenate([_position_table(length, position) for position in positions])


def rows_crc32c(buffer, offset: int, stride: int, count: int, length: int) -> np.ndarray:
    """Plain CRC-32C of ``count`` rows of ``length`` bytes, row i at ``offset + i * stride`` of
    ``buffer`` (uint32 array, equal to ``crc32c`` of each row)."""
    rows = np.ndarray((count, length), dtype=np.uint8, buffer=buffer, offset=offset, strides=(stride, 1))
    first = rows[0]
    positions = _varying_positions(buffer, offset, stride, count, length)
    if positions and count <= _GATHER_ROWS:
        # One gather for all positions (fewer numpy calls; the index array grows with the rows):
        # sum_p T_p[x_p ^ r_p] = sum_p T_p[x_p] ^ sum_p T_p[r_p], the first row's sum.
        index = rows[:, positions].astype(np.intp)
        index += np.arange(0, 256 * len(positions), 256, dtype=np.intp)
        sums = np.bitwise_xor.reduce(_stacked_tables(length, tuple(positions))[index], axis=1)
        sums ^= sums[0] ^ np.uint32(google_crc32c.value(first.tobytes()))
        return sums
    crcs = np.full(count, google_crc32c.value(first.tobytes()), dtype=np.uint32)
    for position in positions:
        table = _position_table(length, position)[_BYTE_VALUES ^ first[position]]
        crcs ^= table[rows[:, position]]
    return crcs


def _varying_positions(buffer, offset: int, stride: int, count: int, length: int) -> list:
    """Byte positions where some row differs from the first, compared 8 bytes at a time (a few
    rows: all bytes in one call)."""
    if count <= _FEW_ROWS:
        rows = np.ndarray((count, length), dtype=np.uint8, buffer=buffer, offset=offset, strides=(stride, 1))
        return np.flatnonzero(np.bitwise_or.reduce(rows ^ rows[0], axis=0)).tolist()
    positions = []
    words = length // 8
    if words:
        columns = np.ndarray((count, words), dtype="<u8", buffer=buffer, offset=offset, strides=(stride, 8))
        for word in range(words):
            column = columns[:, word]
            differs = int(np.bitwise_or.reduce(column ^ column[0]))
            positions.extend(8 * word + byte for byte in range(8) if (differs >> (8 * byte)) & 0xFF)
    rows = np.ndarray((count, length), dtype=np.uint8, buffer=buffer, offset=offset, strides=(stride, 1))
    for position in range(8 * words, length):
        column = rows[:, position]
        if np.bitwise_or.reduce(column ^ column[0]):
            positions.append(position)
    return positions
