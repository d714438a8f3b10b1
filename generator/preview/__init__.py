"""`county-uppy watch`'s live preview: the output folder shown as one self-updating page.

The watch loop (commands/watch.py) rebuilds into the output folder and publishes what the page
needs (state.py, output.py); a small HTTP server on 127.0.0.1 (server.py) serves the page, the
state as JSON, an event stream that says when it changed, the output folder's files
(paths.py keeps every request inside it) and thumbnails of the print sheets (thumbnails.py).
"""
