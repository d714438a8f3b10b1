"""Balance sweeps: the same balance numbers as `report`, over a grid of rule parameters.

grid.py reads `--param` and checks every value against the manifest; run.py plays the
cells' games on a backend (this machine or a Dask cluster); summary.py turns each cell's
counts into the report's statistics and verdict; page.py writes sweep.html and sweep.json.
"""
