"""Write NumPy `.npy` files without NumPy, one row at a time (the dataset export's arrays).

The format (NumPy's "NPY format", version 1.0): a magic string, a header that is a Python
dict literal ({'descr', 'fortran_order', 'shape'}) padded with spaces to a multiple of 64
bytes, then the raw little-endian data in C order. The header is written with room to spare
and rewritten with the final row count when the file is closed, so rows stream to disk and
`numpy.load` reads the result (memory-mapped, if wanted).
"""

from __future__ import annotations

import os
import sys
import tempfile
from array import array
from pathlib import Path
from typing import Iterable

from generator.files import FILE_MODE, check_replaceable

MAGIC = b"\x93NUMPY\x01\x00"
#: Header size in bytes (magic and length included): room for any shape this writes.
HEADER = 128
#: array typecode -> numpy descr, little-endian.
DESCR = {"f": "<f4", "b": "|i1", "B": "|u1", "i": "<i4"}


def header(descr: str, shape: tuple[int, ...]) -> bytes:
    text = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape if len(shape) != 1 else f'({shape[0]},)'}, }}"
    pad = HEADER - len(MAGIC) - 2 - len(text) - 1
    if pad < 0:
        raise ValueError(f"shape {shape} does not fit the .npy header")
    body = (text + " " * pad + "\n").encode("latin-1")
    return MAGIC + len(body).to_bytes(2, "little") + body


class NpyWriter:
    """Rows of `width` values (typecode `f`, `b`, `B` or `i`; width 0: one value a row) appended to PATH."""

    def __init__(self, path: Path, typecode: str, width: int = 0):
        if array(typecode).itemsize != int(DESCR[typecode][2:]):
            raise ValueError(f"array typecode {typecode!r} is not {DESCR[typecode]} here")
        self.path = Path(path)
        self.typecode, self.width, self.rows = typecode, width, 0
        # an exclusive temporary file under an unpredictable name, as files.write_replacing makes: a
        # link planted at a fixed name (ARRAY.npy.tmp) would be written through
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        self.tmp = Path(tmp)
        self.file = os.fdopen(fd, "wb")
        self.file.write(header(DESCR[typecode], self.shape()))

    def shape(self) -> tuple[int, ...]:
        return (self.rows, self.width) if self.width else (self.rows,)

    def add(self, values: Iterable, rows: int = 1) -> None:
        """Append `rows` rows given as one flat sequence of values."""
        data = array(self.typecode, values)
        if len(data) != rows * max(self.width, 1):
            raise ValueError(f"{len(data)} values are not {rows} row(s) of {max(self.width, 1)}")
        if sys.byteorder != "little":
            data.byteswap()
        self.file.write(data.tobytes())
        self.rows += rows

    def add_bytes(self, raw: bytes, rows: int) -> None:
        """Append rows already packed as little-endian bytes (from `pack`)."""
        self.file.write(raw)
        self.rows += rows

    def close(self) -> Path:
        """Write the final row count into the header and move the file into place."""
        self.file.seek(0)
        self.file.write(header(DESCR[self.typecode], self.shape()))
        self.file.close()
        os.chmod(self.tmp, FILE_MODE)  # mkstemp makes 0600
        check_replaceable(self.path)
        os.replace(self.tmp, self.path)
        return self.path

    def abandon(self) -> None:
        self.file.close()
        self.tmp.unlink(missing_ok=True)


def pack(typecode: str, values: Iterable) -> bytes:
    """Values as little-endian bytes of `typecode` (what a worker sends back)."""
    data = array(typecode, values)
    if sys.byteorder != "little":
        data.byteswap()
    return data.tobytes()
