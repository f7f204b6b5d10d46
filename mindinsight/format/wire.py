"""Protobuf wire-format primitives, for the few places that read messages without parsing them
whole (the scalar fast path, a tensor's packed values)."""


def read_varint(data, pos: int, end: int) -> tuple[int | None, int]:
    """``(value, next position)`` of the varint at ``pos`` within ``data[:end]``, or ``(None,
    pos)`` when it runs past ``end`` or beyond 64 bits."""
    result = shift = 0
    while pos < end and shift < 64:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7
    return None, pos
