"""Secrets of identity: session tokens and account passwords.

Tokens are 256 random bits handed to the client once and stored only as their SHA-256 (enough
for a high-entropy secret). Passwords are hashed with scrypt and a per-account salt; hashing
takes tens of milliseconds on purpose, so callers run it in a worker thread.
"""

import hashlib
import hmac
import secrets

__all__ = ["hash_password", "hash_token", "new_token", "verify_password"]

TOKEN_BYTES = 32
SALT_BYTES = 16
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
SCRYPT_BYTES = 32


def new_token() -> str:
    """A fresh session token (URL-safe text)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """What the database stores for `token`."""
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    """`scrypt$n$r$p$salt$hash` for storage."""
    salt = secrets.token_bytes(SALT_BYTES)
    digest = _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    """Whether `password` matches a `hash_password` result (constant-time comparison)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        computed = _scrypt(password, bytes.fromhex(salt), int(n), int(r), int(p))
    except ValueError:
        return False
    return hmac.compare_digest(computed, bytes.fromhex(digest))


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, dklen=SCRYPT_BYTES)
