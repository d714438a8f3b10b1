"""Deck -> files: every product the build writes.

Kept light: the command line reads PRODUCTS while it builds its parsers, before any product
module (and reportlab, Pillow, jinja2) is loaded.
"""

#: The products `county-uppy build --only` can name, in build order (build.PRODUCTS's keys).
PRODUCTS = ("deck", "print", "pod", "rulebook", "tts", "cards")
