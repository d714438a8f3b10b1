"""The preview's state: written by the watch loop, read by the server's threads, versioned.

Every change bumps `version`; the page's event stream (/events) wakes on it and the page then
reads /state. The stream sends the changed cards' image addresses (`images()`) ahead of the
version, so the page asks for them before it has read /state. The JSON is encoded once per change, so a reader never sees half an update.

/state holds:
  version     a number that grows with every change (the page redraws when it moves)
  status      "starting", "building", "ok", "invalid" (the manifest has mistakes), "busy"
              (another build holds the output folder) or "failed" (the build could not finish)
  message     one line saying the status
  builds      rebuilds that succeeded since `watch` started
  problems    the manifest's mistakes: path, line, column, message, source (the line), value
  last        the last successful rebuild: at (local time), seconds, line (what changed), and
              stages, in seconds: after_save (from the newest watched file's save to the
              rebuild's start: the watcher's part), read (the deck read and checked), cards_in
              (the card images committed), page_shows_image (then until an open page said it
              shows the first changed image, from the card images' commit; null without one), whole
              (the whole rebuild); read, cards_in and whole from the rebuild's start; cards_in
              missing for a first build
  manifest    the manifest's path; out: the output folder
  output      the last good build on show (output.read_output)
  focus       the codes of the cards the last rebuild changed (the page scrolls to the first and
              marks them), from the moment its card images are in
  pending     true while the card images of a rebuild are in and its other files (sheets, print
              files, the rulebook) are still being made
  on_the_way  while pending: the products still being made, in build order, each {product: its
              --only name, what: its files}; one is taken off as soon as its files are made
              (they come into the folder with the last, in one commit)
"""

from __future__ import annotations

import json
import threading
from typing import Any

STATUSES = ("starting", "building", "ok", "invalid", "busy", "failed")
#: The image addresses pages said they show that are remembered (handed_over).
SHOWN_KEPT = 1024
#: The changed cards whose images the event stream names ahead of /state (images()).
FOCUS_IMAGES = 4


def _images(doc: dict[str, Any]) -> tuple[str, ...]:
    images = {c.get("code"): c.get("image") for c in doc["output"].get("cards", []) if isinstance(c, dict)}
    return tuple(images[code] for code in doc["focus"][:FOCUS_IMAGES] if images.get(code))


class PreviewState:
    def __init__(self, manifest: str, out: str, output: dict[str, Any]):
        self._changed = threading.Condition()
        self._closed = False
        self._doc: dict[str, Any] = {"version": 0, "status": "starting", "message": "starting", "builds": 0,
                                     "problems": [], "last": None, "manifest": manifest, "out": out,
                                     "output": output, "focus": [], "pending": False, "on_the_way": []}
        self._json = self._encode()
        self._images: tuple[str, ...] = ()  #: the addresses of the changed cards' images (images())
        self._listeners = 0  #: open event streams (pages)
        self._shown: dict[str, None] = {}  #: the last SHOWN_KEPT image addresses a page said it shows, newest last

    def _encode(self) -> bytes:
        return json.dumps(self._doc, ensure_ascii=False, sort_keys=True).encode("utf-8")

    def update(self, **fields: Any) -> int:
        """Change some fields (their names as in /state), bump the version; return it."""
        unknown = set(fields) - set(self._doc) - {"version"}
        if unknown:
            raise KeyError(f"no such state field: {', '.join(sorted(unknown))}")
        if "status" in fields and fields["status"] not in STATUSES:
            raise ValueError(f"no such status: {fields['status']!r}")
        with self._changed:
            self._doc.update(fields)
            self._doc["version"] += 1
            self._json = self._encode()
            if "focus" in fields or "output" in fields:
                self._images = _images(self._doc)
            self._changed.notify_all()
            return self._doc["version"]

    def get(self, name: str) -> Any:
        with self._changed:
            return self._doc[name]

    @property
    def version(self) -> int:
        with self._changed:
            return self._doc["version"]

    def as_json(self) -> bytes:
        """/state: the whole state, encoded."""
        with self._changed:
            return self._json

    def wait(self, seen: int, timeout: float) -> int:
        """The version once it differs from `seen`, or after `timeout` seconds, or once closed."""
        with self._changed:
            self._changed.wait_for(lambda: self._closed or self._doc["version"] != seen, timeout)
            return self._doc["version"]

    def images(self) -> tuple[str, ...]:
        """The addresses of the images of the first FOCUS_IMAGES cards in `focus` (the page asks
        for them first)."""
        with self._changed:
            return self._images

    def listening(self, change: int) -> None:
        """An event stream opened (+1) or closed (-1)."""
        with self._changed:
            self._listeners += change

    def shown(self, address: str) -> None:
        """A page says it shows the image at `address` (its path and query, as in /state), loaded."""
        with self._changed:
            self._shown.pop(address, None)
            self._shown[address] = None
            while len(self._shown) > SHOWN_KEPT:
                del self._shown[next(iter(self._shown))]
            self._changed.notify_all()

    def handed_over(self, address: str, timeout: float) -> bool:
        """Wait until a page says it shows the image at `address` (now or earlier: an edit undone
        brings back an image the browser keeps), at most `timeout` seconds, when a page is
        listening (False at once when none is). The watch loop waits so after a rebuild's card
        images are in: the rest of the build then takes both cores (its workers, Chromium's
        print) and this process's interpreter, and a page waited behind it to get the state and
        the image and to draw it."""
        with self._changed:
            return self._changed.wait_for(
                lambda: self._closed or not self._listeners or address in self._shown, timeout) \
                and address in self._shown

    def close(self) -> None:
        """Wake every waiting reader for good (the server is stopping)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    @property
    def closed(self) -> bool:
        with self._changed:
            return self._closed
