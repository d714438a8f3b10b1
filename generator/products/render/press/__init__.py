"""Printing on a press: the print shops as records (shops.py), colour-managed CMYK through their
profiles (cmyk.py; FOGRA39 shipped in icc/) and each shop's preflight (preflight.py)."""
