"""A build's workers keep the memory they free for their next face (workers.keep_freed_memory)."""

import multiprocessing
import platform
import sys

import pytest

from generator.products.pipeline.rendered import pool


def new_pages_for_a_second_face(_job: object) -> tuple[int, int]:
    """Worker: the memory pages the system hands it (minor faults) for a face-sized image made,
    dropped, then made again, as a worker draws face after face."""
    import resource

    from PIL import Image

    def faults_for_one() -> int:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        im = Image.new("RGBX", (825, 1125), "white")  # a 300 dpi face as PDFium renders it, 3.7 MB
        del im
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

    return faults_for_one(), faults_for_one()


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc"
                    or "fork" not in multiprocessing.get_all_start_methods(), reason="glibc's allocator (mallopt)")
@pytest.mark.parametrize("niceness", [0, 5])
def test_a_build_s_worker_draws_its_second_face_in_the_memory_of_its_first(niceness):
    """The second face-sized image takes no new pages from the system: by default the first is
    unmapped when dropped and the second faults all of its 900 pages in again (about 5 µs each
    here), face after face. The card images' workers (niceness 0) and the background ones alike."""
    with pool(1, window=1, niceness=niceness) as workers:
        ((first, second),) = list(workers.map(new_pages_for_a_second_face, [None]))
    assert first > 800  # 3.7 MB of new pages
    assert second < 50
