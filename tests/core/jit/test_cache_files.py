"""Cache file primitives: private directories, exclusive atomic writes, verified payloads."""

import os
import stat

import pytest

from core.jit import cache_files
from core.jit.errors import CacheIntegrityError, UnsafeCacheDirError


def test_missing_levels_are_created_private(tmp_path):
    path = tmp_path / "a" / "b" / "c"
    assert cache_files.secure_dir(path) == path
    for level in (tmp_path / "a", tmp_path / "a" / "b", path):
        assert stat.S_IMODE(os.stat(level).st_mode) == 0o700


def test_directory_writable_by_others_is_refused(tmp_path):
    d = tmp_path / "shared"
    d.mkdir()
    d.chmod(0o777)
    with pytest.raises(UnsafeCacheDirError, match="others can write it.*chmod 700"):
        cache_files.secure_dir(d)
    d.chmod(0o755)  # readable by others is fine
    cache_files.secure_dir(d)


@pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")
def test_directory_of_another_user_is_refused(tmp_path):
    d = tmp_path / "theirs"
    d.mkdir(mode=0o700)
    os.chown(d, 65534, -1)
    with pytest.raises(UnsafeCacheDirError, match="owned by uid 65534"):
        cache_files.secure_dir(d)


def test_write_replaces_a_planted_symlink_instead_of_following_it(tmp_path):
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    target = tmp_path / "entry"
    target.symlink_to(victim)
    cache_files.write_atomic(target, b"new")
    assert victim.read_bytes() == b"precious"
    assert not target.is_symlink() and target.read_bytes() == b"new"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir() if cache_files.is_temporary(p.name)] == []


def test_reading_through_a_symlink_is_refused(tmp_path):
    real = tmp_path / "real"
    cache_files.write_verified(real, b"payload")
    link = tmp_path / "link"
    link.symlink_to(real)
    with pytest.raises(CacheIntegrityError, match="unreadable"):
        cache_files.read_verified(link)


def test_verified_payload_round_trips_and_every_flipped_bit_is_caught(tmp_path):
    path = tmp_path / "f"
    payload = bytes(range(256)) * 4
    d = cache_files.write_verified(path, payload)
    assert cache_files.read_verified(path) == payload
    assert cache_files.read_verified(path, d) == payload
    raw = path.read_bytes()
    for pos in range(0, len(raw), 37):
        damaged = bytearray(raw)
        damaged[pos] ^= 1 << (pos % 8)
        path.write_bytes(bytes(damaged))
        with pytest.raises(CacheIntegrityError):
            cache_files.read_verified(path)
    path.write_bytes(raw)
    with pytest.raises(CacheIntegrityError, match="does not match"):
        cache_files.read_verified(path, cache_files.digest(b"other"))
    path.write_bytes(raw[:-1])  # truncated by a crash
    with pytest.raises(CacheIntegrityError):
        cache_files.read_verified(path)
