"""How hard an access token is to guess: a cheap, explainable entropy estimate.

Each character counts ``log2`` of the size of the character classes the token uses (lower
case, upper case, digits, ``_-.~``), unless a guesser would predict it: it repeats the
character before it (``aaaa``), continues a run by one (``0123``, ``dcba``) or completes three
characters seen earlier in the token (``abab``, ``passwordpassword``). A random token scores
close to its true entropy; 16 equal characters score under 5 bits.
"""

import math
import string

CHARACTER_CLASSES = (string.ascii_lowercase, string.ascii_uppercase, string.digits, "_-.~")


def _pool_size(token: str) -> int:
    return sum(len(chars) for chars in CHARACTER_CLASSES if any(ch in chars for ch in token))


def _is_predictable(token: str, index: int) -> bool:
    ch = token[index]
    if index >= 1 and ch == token[index - 1]:
        return True
    if index >= 2:
        step = ord(ch) - ord(token[index - 1])
        if abs(step) == 1 and step == ord(token[index - 1]) - ord(token[index - 2]):
            return True
        if token[index - 2 : index + 1] in token[:index]:
            return True
    return False


def token_strength_bits(token: str) -> float:
    """The estimated entropy of ``token`` in bits (see the module docstring)."""
    pool = _pool_size(token)
    if pool < 2:
        return 0.0
    surprising = sum(1 for index in range(len(token)) if not _is_predictable(token, index))
    return surprising * math.log2(pool)
