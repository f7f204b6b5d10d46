"""Masked CRC-32C, the checksum of TFRecord-style framing (hardware accelerated)."""

import google_crc32c

_MASK_DELTA = 0xA282EAD8


def crc32c(data) -> int:
    """Plain CRC-32C (Castagnoli) of ``data`` (bytes-like)."""
    return google_crc32c.value(bytes(data) if isinstance(data, memoryview) else data)


def masked_crc32c(data) -> int:
    """CRC-32C rotated and offset as the record format stores it."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF
