"""County Uppy: one card manifest, every product the game needs."""

__version__ = "0.1.0"
