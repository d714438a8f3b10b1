"""The face cache's packs: one file per area, entries appended, pruned entries compacted away,
a torn last entry dropped, and nothing written before commit()."""

from __future__ import annotations

from generator.products.pipeline.face_cache import CACHE_DIR, PACK, RenderCache


def pack(out, area="tgc"):
    return out / CACHE_DIR / f"{area}{PACK}"


def test_entries_come_back_after_commit_and_not_before(tmp_path):
    store = RenderCache(tmp_path)
    store.put("tgc", "a" * 40, b"first")
    assert not pack(tmp_path).exists()  # nothing written until the build is in place
    store.commit()
    again = RenderCache(tmp_path)
    assert again.get("tgc", "a" * 40) == b"first" and again.get("tgc", "b" * 40) is None


def test_a_rebuild_appends_and_a_pruned_pack_is_compacted_once_half_dead(tmp_path):
    first = RenderCache(tmp_path)
    for i in range(4):
        first.put("tgc", f"{i:040d}", bytes([i]) * 1000)
    first.prune("tgc")
    first.commit()
    size = pack(tmp_path).stat().st_size

    second = RenderCache(tmp_path)  # a one-card edit: three faces from the cache, one new
    for i in range(3):
        assert second.get("tgc", f"{i:040d}") == bytes([i]) * 1000
    second.put("tgc", "9" * 40, b"\x09" * 1000)
    second.prune("tgc")
    second.commit()
    assert pack(tmp_path).stat().st_size > size  # appended: entry 3 is dead but still there

    third = RenderCache(tmp_path)  # only one face still wanted: the dead outweigh the live
    assert third.get("tgc", "9" * 40) == b"\x09" * 1000
    third.prune("tgc")
    third.commit()
    fourth = RenderCache(tmp_path)
    assert fourth.get("tgc", "9" * 40) == b"\x09" * 1000
    assert fourth.get("tgc", f"{0:040d}") is None and pack(tmp_path).stat().st_size < 1200


def test_a_torn_last_entry_is_dropped_and_the_pack_rewritten_whole(tmp_path):
    store = RenderCache(tmp_path)
    store.put("tgc", "a" * 40, b"x" * 500)
    store.put("tgc", "b" * 40, b"y" * 500)
    store.commit()
    data = pack(tmp_path).read_bytes()
    pack(tmp_path).write_bytes(data[:-100])  # a build killed while appending

    torn = RenderCache(tmp_path)
    assert torn.get("tgc", "a" * 40) == b"x" * 500 and torn.get("tgc", "b" * 40) is None
    torn.put("tgc", "c" * 40, b"z" * 500)
    torn.commit()  # rewritten, not appended after the torn bytes
    whole = RenderCache(tmp_path)
    assert whole.get("tgc", "a" * 40) == b"x" * 500 and whole.get("tgc", "c" * 40) == b"z" * 500


def test_a_pack_that_is_not_one_is_ignored(tmp_path):
    pack(tmp_path).parent.mkdir(parents=True)
    pack(tmp_path).write_bytes(b"garbage")
    store = RenderCache(tmp_path)
    assert store.get("tgc", "a" * 40) is None
    store.put("tgc", "a" * 40, b"ok")
    store.commit()
    assert RenderCache(tmp_path).get("tgc", "a" * 40) == b"ok"


def test_a_cache_without_a_folder_keeps_nothing(tmp_path):
    store = RenderCache(None)
    store.put("tgc", "a" * 40, b"x")
    store.commit()
    assert store.get("tgc", "a" * 40) is None


def test_packs_of_retired_areas_are_removed(tmp_path):
    from generator.products.pipeline.face_cache import RETIRED

    root = tmp_path / CACHE_DIR
    root.mkdir()
    old = root / f"{RETIRED[0]}{PACK}"
    old.write_bytes(b"whole TTS sheets an earlier version cached")
    cache = RenderCache(tmp_path)
    cache.put("tgc", "1" * 40, b"x")
    cache.commit()
    assert not old.exists() and RenderCache(tmp_path).get("tgc", "1" * 40) == b"x"
