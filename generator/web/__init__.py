"""Playtesting in the browser: `county-uppy play --web` and `county-uppy replay --web`.

table.py holds one game and what each seat is told; server.py serves the page and the
WebSocket over Starlette and uvicorn; replay.py turns a record into the steps of the replay
page and the shareable file and link. Rules are never re-implemented here: every position
shown is the engine's.
"""
