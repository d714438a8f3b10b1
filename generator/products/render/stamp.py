"""What every print file says about the build that made it: the tool's version, the manifest's
fingerprint and a date, none of them a clock reading, so the same inputs give the same bytes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone


@dataclass(frozen=True)
class Stamp:
    """The provenance a PDF carries in its document information and on its test page."""

    version: str  #: county-uppy's version
    fingerprint: str  #: the first 12 hex digits of the manifest's sha256
    epoch: int  #: seconds since 1970 (SOURCE_DATE_EPOCH, the manifest's last commit or its modification time)

    @property
    def pdf_date(self) -> str:
        """The date as a PDF date string, in UTC: D:YYYYMMDDHHmmSS+00'00'."""
        return datetime.fromtimestamp(self.epoch, timezone.utc).strftime("D:%Y%m%d%H%M%S+00'00'")

    @property
    def day(self) -> str:
        return datetime.fromtimestamp(self.epoch, timezone.utc).strftime("%Y-%m-%d")

    @property
    def line(self) -> str:
        """One line for a page: `county-uppy 0.3.0 · manifest 3f2a9c01b7de · 2026-12-02`."""
        return f"county-uppy {self.version} \u00b7 manifest {self.fingerprint} \u00b7 {self.day}"

    @property
    def producer(self) -> str:
        return f"county-uppy {self.version}"


#: Files made outside a build (the faces rasterized for images): no provenance to state.
NONE = Stamp("", "", 946684800)  # 2000-01-01
